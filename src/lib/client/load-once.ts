/**
 * A module the page loads only when it is needed (an island's zod schema when
 * someone starts filling a form in), fetched once; a failed fetch is tried
 * again on the next call instead of being remembered.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () =>
    (pending ??= load().catch((error: unknown) => {
      pending = null;
      throw error;
    }));
}
