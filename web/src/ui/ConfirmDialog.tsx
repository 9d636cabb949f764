/** A confirmation before a step with consequences (Radix Dialog, as the welcome modal): only the confirm button acts. */
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from './Button';
import { cx } from './cx';
import { useReturnFocus } from './useReturnFocus';

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
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content
          className={cx('dialog__content card', wide && 'dialog__content--wide')}
          role="alertdialog"
          {...returnFocus}
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
