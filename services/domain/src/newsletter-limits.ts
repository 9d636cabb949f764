/**
 * The newsletter's length limits, stated once for the notification service that enforces them, the REST
 * facade whose body limit must admit them and the web composer that counts against them. No imports: the
 * web app bundles this file as it is.
 */
export const newsletterSubjectMaxLength = 200;
/** The content as the admin writes it (HTML, before sanitising), in characters as JavaScript counts them. */
export const newsletterContentMaxLength = 15_000;
/**
 * The largest JSON body a valid newsletter can take: JSON may spell any character as a six-byte `\uXXXX`,
 * so six bytes for each character of the subject and the content, and a kilobyte for the rest of the body.
 */
export const newsletterBodyMaxBytes = 6 * (newsletterSubjectMaxLength + newsletterContentMaxLength) + 1024;
