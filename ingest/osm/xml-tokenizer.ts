/**
 * A small streaming XML tokenizer over UTF-8 bytes, enough for OSM XML: start, end and
 * self-closing tags with attributes go to a sink; text, comments, CDATA, processing instructions
 * and a DOCTYPE are skipped. Well-formedness that matters is checked (one root, end tags match,
 * quoted attributes, no duplicate attribute, entity references). Bytes arrive in chunks; only an
 * unfinished construct is carried over to the next chunk, so memory stays at one chunk plus one tag.
 * Attribute values are decoded only when the sink asks for them.
 */

export class XmlSyntaxError extends Error {
  override readonly name = 'XmlSyntaxError';
  constructor(message: string, readonly line: number, readonly byte: number) {
    super(message);
  }
}

export interface XmlAttributes {
  /** The decoded value (entities expanded, whitespace normalised), undefined when absent. */
  get(name: string): string | undefined;
}

export interface XmlSink {
  /** A self-closing element gets `open` then `close`. */
  open(name: string, attributes: XmlAttributes): void;
  close(name: string): void;
}

export interface XmlLocation {
  /** 1-based line of the construct being handled. */
  line: number;
  /** Byte offset of the construct in the XML text. */
  byte: number;
}

/** An unfinished construct longer than this is refused rather than buffered without end. */
const MAX_CONSTRUCT_BYTES = 16 * 1024 * 1024;
const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const EQ = 0x3d;
const AMP = 0x26;
const EMPTY = Buffer.alloc(0);
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ENTITY_REF = /&(?:#x([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|([A-Za-z]+));/y;
const utf8 = new TextDecoder('utf-8', { fatal: true });

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x09 || b === 0x0d;
const isNameByte = (b: number) =>
  (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) ||
  b === 0x5f || b === 0x3a || b === 0x2d || b === 0x2e || b >= 0x80;
const isNameStart = (b: number | undefined) =>
  b !== undefined && isNameByte(b) && !(b >= 0x30 && b <= 0x39) && b !== 0x2d && b !== 0x2e;

export class XmlTokenizer implements XmlAttributes {
  private buf: Buffer = EMPTY;
  private pos = 0;
  /** Offset of buf[0] in the whole text, and the line it is on. */
  private base = 0;
  private baseLine = 1;
  private tokenStart = 0;
  private readonly stack: string[] = [];
  private sawRoot = false;
  /** Attribute ranges of the current start tag: name start, name end, value start, value end. */
  private attrs: number[] = [];

  constructor(private readonly sink: XmlSink) {}

  write(chunk: Buffer): void {
    this.drop();
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    this.parse();
  }

  /** Call after the last chunk: anything still open or unfinished is an error. */
  end(): void {
    this.drop();
    if (this.buf.length > 0) {
      this.tokenStart = 0;
      throw this.error(`unexpected end of file inside "${this.preview()}"`);
    }
    this.tokenStart = 0;
    const open = this.stack[this.stack.length - 1];
    if (open !== undefined) throw this.error(`unexpected end of file: <${open}> is not closed`);
    if (!this.sawRoot) throw this.error('no root element');
  }

  /** Where the construct being handled starts (for errors raised by the sink). */
  location(): XmlLocation {
    let line = this.baseLine;
    for (let i = this.buf.indexOf(0x0a); i >= 0 && i < this.tokenStart; i = this.buf.indexOf(0x0a, i + 1)) line++;
    return { line, byte: this.base + this.tokenStart };
  }

  /** Bytes of XML text seen so far. */
  get bytes(): number {
    return this.base + this.buf.length;
  }

  /** An error located at the construct being handled. */
  error(message: string): XmlSyntaxError {
    const { line, byte } = this.location();
    return new XmlSyntaxError(message, line, byte);
  }

  get(name: string): string | undefined {
    const a = this.attrs;
    const buf = this.buf;
    outer: for (let i = 0; i < a.length; i += 4) {
      const start = a[i]!;
      if (a[i + 1]! - start !== name.length) continue;
      for (let j = 0; j < name.length; j++) if (buf[start + j] !== name.charCodeAt(j)) continue outer;
      return this.decodeValue(a[i + 2]!, a[i + 3]!);
    }
    return undefined;
  }

  /** Forgets the consumed bytes, keeping line and offset counts. */
  private drop(): void {
    const { buf, pos } = this;
    if (pos === 0) return;
    for (let i = buf.indexOf(0x0a); i >= 0 && i < pos; i = buf.indexOf(0x0a, i + 1)) this.baseLine++;
    this.base += pos;
    this.buf = pos < buf.length ? buf.subarray(pos) : EMPTY;
    this.pos = 0;
    this.tokenStart = 0;
  }

  private parse(): void {
    const buf = this.buf;
    if (this.base === 0 && this.pos === 0 && buf[0] === 0xef) {
      // a UTF-8 byte order mark, possibly split across chunks
      if (buf.length < 3) return;
      if (buf[1] === 0xbb && buf[2] === 0xbf) this.pos = 3;
    }
    for (;;) {
      const lt = buf.indexOf(LT, this.pos);
      this.checkText(this.pos, lt < 0 ? buf.length : lt);
      if (lt < 0) {
        this.pos = buf.length;
        return;
      }
      this.pos = lt;
      this.tokenStart = lt;
      const next = this.construct(lt);
      if (next < 0) {
        if (buf.length - lt > MAX_CONSTRUCT_BYTES) throw this.error(`a construct longer than ${MAX_CONSTRUCT_BYTES} bytes: "${this.preview()}"`);
        return;
      }
      this.pos = next;
    }
  }

  /** Text is ignored inside the root; outside it only whitespace may appear. */
  private checkText(from: number, to: number): void {
    if (this.stack.length > 0) return;
    const buf = this.buf;
    for (let i = from; i < to; i++) {
      if (isSpace(buf[i])) continue;
      this.tokenStart = i;
      throw this.error(this.sawRoot ? 'text after the root element' : 'text before the root element (not an XML file?)');
    }
  }

  /** Handles the construct at `lt`; returns the index after it, or -1 when it is not complete yet. */
  private construct(lt: number): number {
    const buf = this.buf;
    const c = buf[lt + 1];
    if (c === undefined) return -1;
    if (c === 0x3f) {
      const end = this.skipTo('?>', lt + 2);
      if (end > 0 && !this.sawRoot) this.checkEncoding(lt, end);
      return end;
    }
    if (c === 0x21) return this.declaration(lt);
    if (c === SLASH) return this.endTag(lt);
    return this.startTag(lt);
  }

  /** The XML declaration may name an encoding: only UTF-8 (and its ASCII subset) is read. */
  private checkEncoding(lt: number, end: number): void {
    const text = this.buf.toString('latin1', lt, end);
    const encoding = /^<\?xml\s[^>]*encoding\s*=\s*["']([^"']*)["']/.exec(text)?.[1];
    if (encoding !== undefined && !/^(utf-?8|us-ascii|ascii)$/i.test(encoding)) {
      throw this.error(`unsupported encoding "${encoding}" (only UTF-8 is read)`);
    }
  }

  private skipTo(terminator: string, from: number): number {
    const at = this.buf.indexOf(terminator, from, 'latin1');
    return at < 0 ? -1 : at + terminator.length;
  }

  private declaration(lt: number): number {
    const buf = this.buf;
    const starts = (s: string) => buf.length - lt < s.length ? null : buf.toString('latin1', lt, lt + s.length) === s;
    const comment = starts('<!--');
    if (comment === null) return -1;
    if (comment) return this.skipTo('-->', lt + 4);
    const cdata = starts('<![CDATA[');
    if (cdata) return this.skipTo(']]>', lt + 9);
    const doctype = starts('<!DOCTYPE');
    if (cdata === null || doctype === null) return -1;
    if (!doctype) throw this.error(`unsupported markup "${this.preview()}"`);
    if (this.sawRoot) throw this.error('DOCTYPE after the root element');
    const gt = buf.indexOf(GT, lt);
    const bracket = buf.indexOf(0x5b, lt);
    if (bracket >= 0 && (gt < 0 || bracket < gt)) {
      const close = buf.indexOf(0x5d, bracket); // internal subset: skipped whole
      return close < 0 ? -1 : this.skipTo('>', close);
    }
    return gt < 0 ? -1 : gt + 1;
  }

  private endTag(lt: number): number {
    const buf = this.buf;
    let i = lt + 2;
    while (i < buf.length && isNameByte(buf[i]!)) i++;
    const nameEnd = i;
    while (i < buf.length && isSpace(buf[i])) i++;
    if (i >= buf.length) return -1;
    if (buf[i] !== GT || nameEnd === lt + 2) throw this.error(`malformed end tag "${this.preview()}"`);
    const name = buf.toString('utf8', lt + 2, nameEnd);
    const open = this.stack.pop();
    if (open === undefined) throw this.error(`end tag </${name}> without a start tag`);
    if (open !== name) throw this.error(`end tag </${name}> where </${open}> was expected`);
    this.sink.close(name);
    return i + 1;
  }

  private startTag(lt: number): number {
    const buf = this.buf;
    const len = buf.length;
    if (!isNameStart(buf[lt + 1])) throw this.error(`"<" not followed by a tag name: "${this.preview()}"`);
    let i = lt + 1;
    while (i < len && isNameByte(buf[i]!)) i++;
    const nameEnd = i;
    const attrs: number[] = [];
    let selfClosing = false;
    for (;;) {
      const spaced = isSpace(buf[i]);
      while (i < len && isSpace(buf[i])) i++;
      if (i >= len) return -1;
      const b = buf[i]!;
      if (b === GT) break;
      if (b === SLASH) {
        if (i + 1 >= len) return -1;
        if (buf[i + 1] !== GT) throw this.error(`"/" not followed by ">" in "${this.preview()}"`);
        selfClosing = true;
        i++;
        break;
      }
      if (!spaced || !isNameStart(b)) throw this.error(`malformed attribute in "${this.preview()}"`);
      const nameStart = i;
      while (i < len && isNameByte(buf[i]!)) i++;
      const attrNameEnd = i;
      while (i < len && isSpace(buf[i])) i++;
      if (i >= len) return -1;
      if (buf[i] !== EQ) throw this.error(`attribute without "=" in "${this.preview()}"`);
      i++;
      while (i < len && isSpace(buf[i])) i++;
      if (i >= len) return -1;
      const quote = buf[i]!;
      if (quote !== 0x22 && quote !== 0x27) throw this.error(`unquoted attribute value in "${this.preview()}"`);
      const close = buf.indexOf(quote, i + 1);
      const lessThan = buf.indexOf(LT, i + 1);
      if (lessThan >= 0 && (close < 0 || lessThan < close)) throw this.error(`"<" in an attribute value (unclosed quote?) in "${this.preview()}"`);
      if (close < 0) return -1;
      attrs.push(nameStart, attrNameEnd, i + 1, close);
      i = close + 1;
    }
    this.checkDuplicates(attrs);
    const name = buf.toString('utf8', lt + 1, nameEnd);
    if (this.stack.length === 0) {
      if (this.sawRoot) throw this.error(`second root element <${name}>`);
      this.sawRoot = true;
    }
    this.attrs = attrs;
    this.sink.open(name, this);
    this.attrs = [];
    if (selfClosing) this.sink.close(name);
    else this.stack.push(name);
    return i + 1;
  }

  private checkDuplicates(attrs: number[]): void {
    const buf = this.buf;
    for (let i = 4; i < attrs.length; i += 4) {
      const start = attrs[i]!;
      const len = attrs[i + 1]! - start;
      pairs: for (let j = 0; j < i; j += 4) {
        const other = attrs[j]!;
        if (attrs[j + 1]! - other !== len) continue;
        for (let k = 0; k < len; k++) if (buf[start + k] !== buf[other + k]) continue pairs;
        throw this.error(`duplicate attribute "${buf.toString('utf8', start, start + len)}"`);
      }
    }
  }

  private decodeValue(start: number, end: number): string {
    const buf = this.buf;
    let ascii = true;
    let special = false;
    for (let i = start; i < end; i++) {
      const b = buf[i]!;
      if (b >= 0x80) ascii = false;
      else if (b === AMP || b === 0x09 || b === 0x0a || b === 0x0d) special = true;
      else if (b < 0x20) throw this.error(`control character 0x${b.toString(16)} in an attribute value`);
    }
    let value: string;
    if (ascii) value = buf.toString('latin1', start, end);
    else {
      try {
        value = utf8.decode(buf.subarray(start, end));
      } catch {
        throw this.error('invalid UTF-8 in an attribute value');
      }
    }
    return special ? this.expand(value) : value;
  }

  /** Attribute-value normalisation (XML 1.0 §3.3.3): literal line ends and tabs become spaces; references expand. */
  private expand(raw: string): string {
    const value = raw.replace(/\r\n?|[\n\t]/g, ' ');
    let out = '';
    let from = 0;
    for (let amp = value.indexOf('&'); amp >= 0; amp = value.indexOf('&', from)) {
      ENTITY_REF.lastIndex = amp;
      const m = ENTITY_REF.exec(value);
      const text = m && (m[3] !== undefined ? ENTITIES[m[3]] : codePoint(m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2]!, 10)));
      if (!m || text === undefined) {
        throw this.error(`bad entity reference "${value.slice(amp, amp + 12)}" in an attribute value`);
      }
      out += value.slice(from, amp) + text;
      from = amp + m[0].length;
    }
    return out + value.slice(from);
  }

  private preview(): string {
    const text = this.buf.toString('utf8', this.tokenStart, Math.min(this.buf.length, this.tokenStart + 60));
    return text.replace(/\s+/g, ' ') + (this.buf.length - this.tokenStart > 60 ? '…' : '');
  }
}

/** The character of an XML character reference, undefined when XML does not allow it. */
function codePoint(cp: number): string | undefined {
  const allowed = cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
  return allowed ? String.fromCodePoint(cp) : undefined;
}
