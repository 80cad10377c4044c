/**
 * A retention as the operator keeps it (mariadb-operator: a Go duration such as `336h`), with
 * whole days beside it when it is a whole number of days: what the user typed (`14d`) and what
 * the operator has are both on screen.
 */
export function retentionText(retention: string | undefined): string {
  if (!retention) return 'default';
  const hours = /^(\d+)h(?:0m(?:0s)?)?$/.exec(retention);
  if (!hours) return retention;
  const h = Number(hours[1]);
  return h > 0 && h % 24 === 0 ? `${retention} (${h / 24}d)` : retention;
}
