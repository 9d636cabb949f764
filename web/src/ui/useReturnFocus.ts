/**
 * For a Radix dialog opened without a Radix trigger: it would drop focus to the page on closing, so focus goes back
 * to what had it when the dialog opened (while that is still on the page). Spread onto Dialog.Content.
 */
import { useRef } from 'react';

export function useReturnFocus() {
  const opener = useRef<Element | null>(null);
  return {
    onOpenAutoFocus: () => {
      opener.current = document.activeElement;
    },
    onCloseAutoFocus: (event: Event) => {
      event.preventDefault();
      if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
    },
  };
}
