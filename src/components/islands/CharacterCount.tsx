import { useEffect, useState } from 'react';

interface Props {
  /** The id of the field to count; the field itself stays plain HTML. */
  fieldId: string;
  max: number;
  /** The count the server rendered (the stored or the typed text). */
  initial: number;
}

// A live count under a long text field. The field is not controlled by React:
// the island reads what is already typed when it wakes and listens for more,
// so nothing typed before hydration is lost (docs/decisions/0016).
export default function CharacterCount({ fieldId, max, initial }: Props) {
  const [count, setCount] = useState(initial);
  useEffect(() => {
    const field = document.getElementById(fieldId) as HTMLTextAreaElement | HTMLInputElement | null;
    if (!field) return;
    const update = () => setCount(field.value.length);
    update();
    field.addEventListener('input', update);
    return () => field.removeEventListener('input', update);
  }, [fieldId]);
  const over = count > max;
  return (
    <p className={`text-sm ${over ? 'font-medium text-danger-700' : 'text-ink-muted'}`} data-character-count>
      {count.toLocaleString('en-US')} / {max.toLocaleString('en-US')} characters{over ? ' (too long)' : ''}
    </p>
  );
}
