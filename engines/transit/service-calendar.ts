/**
 * Which services run on which dates, as one bit per (service, day) between each service's first
 * and last date: VIA Rail's calendar to 2059 (~800k service_days rows) fits in about 100 kB.
 */
export class ServiceCalendar {
  private constructor(
    private readonly firstDay: Int32Array,
    private readonly span: Int32Array,
    private readonly offset: Float64Array,
    private readonly bits: Uint8Array,
  ) {}

  /** ranges[s] = [first, last] day (days since 1970-01-01) of service s, or null when it never runs. */
  static allocate(ranges: ([number, number] | null)[]): ServiceCalendar {
    const firstDay = new Int32Array(ranges.length);
    const span = new Int32Array(ranges.length);
    const offset = new Float64Array(ranges.length);
    let bytes = 0;
    ranges.forEach((range, s) => {
      if (!range) return;
      firstDay[s] = range[0];
      span[s] = range[1] - range[0] + 1;
      offset[s] = bytes;
      bytes += Math.ceil(span[s]! / 8);
    });
    return new ServiceCalendar(firstDay, span, offset, new Uint8Array(bytes));
  }

  set(service: number, day: number): void {
    const d = day - this.firstDay[service]!;
    if (d < 0 || d >= this.span[service]!) throw new RangeError(`day ${day} is outside the range of service ${service}`);
    this.bits[this.offset[service]! + (d >> 3)]! |= 1 << (d & 7);
  }

  runs(service: number, day: number): boolean {
    const d = day - this.firstDay[service]!;
    if (d < 0 || d >= this.span[service]!) return false;
    return (this.bits[this.offset[service]! + (d >> 3)]! & (1 << (d & 7))) !== 0;
  }
}
