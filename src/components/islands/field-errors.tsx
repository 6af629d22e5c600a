// How the islands' forms show a field and what is wrong with it: the label,
// the control with aria-invalid, the message under it, and aria-describedby
// naming the message (and a hint, when the field has one), so a screen reader
// reads both with the field. Also what the islands' form elements, address
// inputs and plain selects have in common.
import type { ComponentProps, ReactNode, Ref } from 'react';

/**
 * The form element of an island that checks its fields with a schema: a real
 * post, so it works before hydration; no browser bubbles (the schema's
 * messages show under the fields); the schema module fetched at the first
 * focus, so the first submit need not wait for it; busy while it is sent.
 */
export function schemaFormProps(action: string, onSubmit: ComponentProps<'form'>['onSubmit'], loadSchemas: () => Promise<unknown>, busy: boolean) {
  return { method: 'post', action, noValidate: true, onSubmit, onFocus: () => void loadSchemas().catch(() => {}), 'aria-busy': busy } as const;
}

/** An address is typed to the letter: its own keyboard and autofill, and no capitals or spelling fixes. */
const addressInput = <K extends 'email' | 'url'>(kind: K) =>
  ({ type: kind, autoComplete: kind, inputMode: kind, autoCapitalize: 'none', spellCheck: false }) as const;
export const EMAIL_INPUT = addressInput('email');
export const URL_INPUT = addressInput('url');

/** What every control of a field carries; the caller adds its type, limits and value. */
export interface ControlProps {
  id: string;
  name: string;
  className: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export function fieldErrors<F extends string>(errors: Partial<Record<F, string>>, id: (name: string) => string) {
  const invalid = (field: F) => (errors[field] ? true : undefined);
  const describe = (field: F, hintId?: string) => [errors[field] ? id(`${field}-error`) : null, hintId].filter(Boolean).join(' ') || undefined;
  const errorText = (field: F) =>
    errors[field] ? (
      <p id={id(`${field}-error`)} className="field-error" data-error-for={field}>
        {errors[field]}
      </p>
    ) : null;
  /** A whole field: `control` renders the input, select or textarea from the props it is given. */
  const field = (
    name: F,
    label: ReactNode,
    control: (props: ControlProps) => ReactNode,
    { optional = false, wide = false, hint }: { optional?: boolean; wide?: boolean; hint?: ReactNode } = {},
  ) => (
    <div className={wide ? 'field sm:col-span-2' : 'field'}>
      <label htmlFor={id(name)} className="label">
        {label}
        {optional && (
          <>
            {' '}
            <span className="font-normal text-ink-muted">(optional)</span>
          </>
        )}
      </label>
      {control({
        id: id(name),
        name,
        className: 'input',
        'aria-invalid': invalid(name),
        'aria-describedby': describe(name, hint ? id(`${name}-hint`) : undefined),
      })}
      {hint && (
        <p id={id(`${name}-hint`)} className="text-sm text-ink-muted">
          {hint}
        </p>
      )}
      {errorText(name)}
    </div>
  );
  /** The consent box of a request or a booking: required, the privacy policy linked, its message under it. */
  const consent = (name: F, about: 'request' | 'booking', defaultChecked: boolean) => (
    <div className="sm:col-span-2">
      <div className="flex items-start gap-3">
        <input
          id={id(name)}
          name={name}
          type="checkbox"
          value="true"
          required
          defaultChecked={defaultChecked}
          className="mt-1 size-5 shrink-0 accent-brand-700"
          aria-invalid={invalid(name)}
          aria-describedby={describe(name)}
        />
        <label htmlFor={id(name)} className="text-sm text-ink">
          I agree to be contacted about this {about} by e-mail or phone, and I have read the{' '}
          <a className="link" href="/privacy-policy">
            Privacy Policy
          </a>
          .
        </label>
      </div>
      {errorText(name)}
    </div>
  );
  return { invalid, describe, errorText, field, consent };
}

export interface SelectOption {
  value: string | number;
  label: string;
}

/** A labelled select whose choice is sent as it stands (nothing to check, so no message under it). */
export function SelectField({
  ref,
  id,
  name,
  label,
  options,
  defaultValue,
  className = 'field',
}: {
  ref?: Ref<HTMLSelectElement>;
  id: string;
  name: string;
  label: string;
  options: SelectOption[];
  defaultValue: string | number;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <select ref={ref} id={id} name={name} className="input" defaultValue={defaultValue}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
