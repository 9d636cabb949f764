/** Sharing a quote: the device's share sheet, else the clipboard, with a toast for each outcome; no server call. */
import { toast } from '../../ui/toastStore';

export async function shareQuote(text: string): Promise<void> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ text });
      return;
    } catch (error) {
      if ((error as Error).name === 'AbortError') return; // the user closed the sheet
    }
  }
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied!', description: 'Quote copied to clipboard' });
  } catch {
    toast({ title: 'Share Failed', description: 'Unable to share quote. Please try again.', variant: 'destructive' });
  }
}
