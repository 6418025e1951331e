// An instant as a person reads it in a mail: the weekday, date and time in the recipient's time
// zone when it is known, else in UTC, and the zone always said ("Friday 11 December 2026, 21:03
// (Europe/Berlin time)"). Never an ISO string: nobody reads `2026-12-11T20:03:36.673Z` at a glance.

/** The zone when Intl knows it; UTC for none or an unknown name (a mail is never refused for it). */
function zoneOrUtc(timeZone: string | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

export function instantInWords(at: Date, timeZone?: string): string {
  const zone = zoneOrUtc(timeZone);
  const date = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(at);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `${date.replace(',', '')}, ${time} ${zone === 'UTC' ? 'UTC' : `(${zone} time)`}`;
}

/** "10 minutes", "1 hour", "2 hours and 30 minutes". */
export function durationInWords(minutes: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return unit(m, 'minute');
  return m === 0 ? unit(h, 'hour') : `${unit(h, 'hour')} and ${unit(m, 'minute')}`;
}
