// How the islands' forms show a field and what is wrong with it: the label,
// the control with aria-invalid, the message under it, and aria-describedby
// naming the message (and a hint, when the field has one), so a screen reader
// reads both with the field.
import type { ReactNode } from 'react';

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
  return { invalid, describe, errorText, field };
}
