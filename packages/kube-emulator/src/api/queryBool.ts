/**
 * Kubernetes query booleans: absent, `0` and case-insensitive `false` are false; anything else,
 * including the empty string, is true (apimachinery Convert_Slice_string_To_bool).
 */
export function queryBool(value: string | null | undefined): boolean {
  if (value === null || value === undefined) return false;
  return !(value === '0' || value.toLowerCase() === 'false');
}
