/** A confirmation before a step with consequences (Radix Dialog, as the welcome modal): only the confirm button acts. */
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';
import { Button, type ButtonVariant } from './Button';
import { cx } from './cx';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  /** The button that closes the dialog and changes nothing. */
  cancelLabel?: string;
  confirmVariant?: ButtonVariant;
  busy: boolean;
  onConfirm: () => void;
  onOpenChange: (open: boolean) => void;
  /** What the step will act on, shown between the description and the buttons (a preview). */
  children?: ReactNode;
  /** A wider dialog, for content that needs the room. */
  wide?: boolean;
}

export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  confirmVariant = 'destructive',
  busy,
  onConfirm,
  onOpenChange,
  children,
  wide = false,
}: ConfirmDialogProps) {
  // Opened without a Radix trigger, the dialog would drop focus to the page on closing: it goes back to what had it.
  const opener = useRef<Element | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content
          className={cx('dialog__content card', wide && 'dialog__content--wide')}
          role="alertdialog"
          onOpenAutoFocus={() => {
            opener.current = document.activeElement;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
          }}
        >
          <Dialog.Title className="card__title">{title}</Dialog.Title>
          <Dialog.Description>{description}</Dialog.Description>
          {children}
          <div className="button-row dialog__actions">
            <Dialog.Close asChild>
              <Button variant="outline" disabled={busy}>
                {cancelLabel}
              </Button>
            </Dialog.Close>
            <Button variant={confirmVariant} loading={busy} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
