// What a form page hands each FormField from the state of its form: the label,
// the value shown (typed or stored), the server's error, and the focus for the
// first field in error, so every page wires its fields the same way.
interface FormState {
  labels: Record<string, string>;
  values: Record<string, string>;
  errors: Record<string, string>;
  idPrefix: string;
  /** The fields in the order the form shows them, when the labels are in another. */
  order?: readonly string[];
}

export function formFields({ labels, values, errors, idPrefix, order = Object.keys(labels) }: FormState) {
  const firstError = order.find((name) => errors[name]);
  const field = (name: string) => ({
    name,
    label: labels[name]!,
    value: values[name] ?? '',
    error: errors[name],
    autofocus: firstError === name,
    idPrefix,
  });
  return { firstError, field };
}
