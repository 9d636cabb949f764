/**
 * The web app's one way to run a form: its values, the messages beside its fields, its pending state and its
 * submit (the client's checks, then the server's answer). The server is the authority: the client's checks only
 * spare a round trip, and the server's refusals show beside the fields they name. A hook of its own rather than a
 * form library: the landing page's newsletter form is in the first-load scripts of a public page, where a library
 * would cost ten times as much.
 */
import { useRef, useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { toast, type ToastOptions } from '../ui/toastStore';
import { hasErrors, type FieldErrors } from './fieldErrors';

/** A form's values by field: mostly text, but a slider's number or a choice's key fits as well. */
type Values = Record<string, unknown>;

/** The fields that hold text, the ones `field(name)` binds to a text box. */
export type TextFields<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

/** What a submit's callbacks may do to the form. */
export interface FormControls<T extends Values> {
  /** Puts every field back to these values (or the first ones). */
  reset: (values?: T) => void;
  /** Moves focus to the first field flagged invalid, once the flags are drawn. */
  focusFirstError: () => void;
}

export type { FieldErrors };

/** One field's value, message and change handler, spread onto a TextField (or a textarea). */
export interface FieldBinding {
  value: string;
  error: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => void;
}

export interface FormOptions<T extends Values> {
  initial: T | (() => T);
  /** The client's checks, shown beside the fields; any message stops the submit. */
  validate?: (values: T) => FieldErrors<T>;
  /** A problem told in a toast, for a form without room beside its field; stops the submit. */
  check?: (values: T) => ToastOptions | null | undefined;
  /**
   * What typing does to the messages shown: they stay until the next submit ('keep', the default), the field's
   * own goes ('clear'), or every field is checked again once a submit has shown messages ('recheck').
   */
  errorsOnChange?: 'keep' | 'clear' | 'recheck';
  /** Focus moves to the first invalid field when the client's checks stop a submit. */
  focusFirstError?: boolean;
  /** Sends the form and acts on success; a throw is the failure. */
  submit: (values: T, form: FormControls<T>) => Promise<void>;
  /**
   * Tells the person of a failure and gives the messages beside the fields; most forms pass
   * `refused(…)` (lib/serverRefusal.ts). Without it a failure only clears the messages.
   */
  failed?: (error: unknown, values: T, form: FormControls<T>) => FieldErrors<T>;
  /** The page moves on after a success: the form stays pending until it has. */
  leavesOnSuccess?: boolean;
}

export function useForm<T extends Values>(options: FormOptions<T>) {
  const [values, setValues] = useState<T>(options.initial);
  const [errors, setErrors] = useState<FieldErrors<T>>({});
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const formRef = useRef<HTMLFormElement | null>(null);
  const first = useRef<T | null>(null);
  if (first.current === null) first.current = values;

  const controls: FormControls<T> = {
    reset: (next) => setValues(next ?? (first.current as T)),
    focusFirstError: () => {
      const form = formRef.current;
      window.requestAnimationFrame(() => {
        form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      });
    },
  };

  const set = <K extends keyof T & string>(name: K, value: T[K]) => {
    const next = { ...values, [name]: value };
    setValues(next);
    const mode = options.errorsOnChange ?? 'keep';
    if (mode === 'recheck' && submitted && options.validate) setErrors(options.validate(next));
    else if (mode === 'clear') setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const field = (name: TextFields<T>): FieldBinding => ({
    value: (values[name] as string | undefined) ?? '',
    error: errors[name],
    onChange: (event) => set(name, event.target.value as T[typeof name]),
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    formRef.current = event.currentTarget;
    const notice = options.check?.(values);
    if (notice) {
      toast({ variant: 'destructive', ...notice });
      return;
    }
    if (options.validate) {
      setSubmitted(true);
      const clientErrors = options.validate(values);
      setErrors(clientErrors);
      if (hasErrors(clientErrors)) {
        if (options.focusFirstError) controls.focusFirstError();
        return;
      }
    }
    setPending(true);
    try {
      await options.submit(values, controls);
      setErrors({});
      if (!options.leavesOnSuccess) setPending(false);
    } catch (error) {
      setErrors(options.failed?.(error, values, controls) ?? {});
      setPending(false);
    }
  };

  return { values, errors, pending, set, field, reset: controls.reset, onSubmit };
}
