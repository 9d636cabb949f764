/**
 * The data export's file: everything Haven stores about a person, one JSON document. Each service writes its own
 * part (`User.<service>Export`, its sections as JSON), so whoever joins the parts knows none of their fields; the
 * join only refuses a service's mistake that would lose data.
 */

/** The one file name of the data export (a JSON download with a fixed file name). */
export const dataExportFileName = 'haven-data-export.json';

/** The services' parts of the export, in the order the file lists their sections (each `User.<service>Export`). */
export const dataExportParts = [
  'accountExport',
  'quoteExport',
  'billingExport',
  'notificationExport',
  'complianceExport',
] as const;

/** The export file: `format`, `exportedAt`, then each part's sections. */
export type DataExportFile = Record<string, unknown>;

/**
 * The export file: its format and time, then each part's sections as the services wrote them. Two parts naming
 * the same section, or a part that is not a JSON object, is a service's mistake: it throws rather than let one
 * part overwrite another.
 */
export function joinDataExport(parts: ReadonlyArray<{ sections: string }>, exportedAt: Date): DataExportFile {
  const file: DataExportFile = { format: 'haven-data-export/2', exportedAt: exportedAt.toISOString() };
  parts.forEach((part, index) => {
    const sections = jsonObjectOf(part.sections);
    if (!sections) throw new Error(`Data export part ${index} is not a JSON object`);
    for (const [name, section] of Object.entries(sections)) {
      // `format` and `exportedAt` are the file's own: a part naming one collides as two parts would.
      if (Object.hasOwn(file, name)) throw new Error(`Data export section "${name}" is named twice`);
      file[name] = section;
    }
  });
  return file;
}

function jsonObjectOf(text: string): DataExportFile | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as DataExportFile) : null;
}
