/** Dates are rendered in UTC on the server and in the owner's own time zone once the page has hydrated. */
function formatWhen(iso: string, local: boolean) {
  const text = new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', ...(local ? {} : { timeZone: 'UTC' }) });
  return local ? text : `${text} UTC`;
}

export function When({ iso, local }: { iso: string; local: boolean }) {
  return <time dateTime={iso}>{formatWhen(iso, local)}</time>;
}
