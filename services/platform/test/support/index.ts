/** The platform's test support: what a service logs about one request. Import from here. */
export { capturedServiceLog, loggedRequest } from './logged-request';
