/** The three counts the settings page and the analytics page show. */
export interface UserStats {
  totalQuotes: number;
  totalEntries: number;
  favoriteQuotes: number;
}
