/** The data export's CSV download's name: a product prefix and the day (yyyy-mm-dd). */
export const exportFileName = (day: string): string => `haven-data-${day}.csv`;
