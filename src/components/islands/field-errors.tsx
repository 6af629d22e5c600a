// How the islands' forms show what is wrong with a field: aria-invalid on it,
// the message under it, and aria-describedby naming the message (and a hint,
// when the field has one), so a screen reader reads both with the field.
export function fieldErrors<F extends string>(errors: Partial<Record<F, string>>, id: (name: string) => string) {
  return {
    invalid: (field: F) => (errors[field] ? true : undefined),
    describe: (field: F, hintId?: string) => [errors[field] ? id(`${field}-error`) : null, hintId].filter(Boolean).join(' ') || undefined,
    errorText: (field: F) =>
      errors[field] ? (
        <p id={id(`${field}-error`)} className="field-error" data-error-for={field}>
          {errors[field]}
        </p>
      ) : null,
  };
}
