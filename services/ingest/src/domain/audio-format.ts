/**
 * What kind of audio a file holds, judged by its first bytes and never by its name or the type the
 * browser claims: a text file renamed .mp3 is still text, and a recording saved without an
 * extension is still a recording. Pure: the caller reads the head of the file
 * (AUDIO_HEAD_BYTES of it) and passes it in.
 *
 * Decisions:
 * - A Matroska file (DocType 'matroska', e.g. .mka from desktop recorders) is accepted as the webm
 *   container: WebM is a subset of Matroska and the same demuxer reads both. It keeps its own
 *   MIME type (audio/x-matroska) and extension (mka) so a stored copy is labelled honestly.
 * - An MP4 whose brands are generic ('isom', 'mp42', 'dash'…) may also carry video; the head cannot
 *   tell, and its audio track is what gets transcribed, so it is accepted as mp4 audio.
 * - A WAV holding A-law, µ-law or ADPCM (common in telephony) is accepted with no codec named.
 * - An ID3 tag longer than the head hides what follows it; the file is then taken as MP3 (by far
 *   the most common reason for an ID3 tag). When what follows is visible it decides: MPEG frames
 *   mean MP3, 'fLaC' FLAC, ADTS AAC, and anything else means the tag was glued to something that
 *   is not audio.
 * - A bare MPEG or ADTS frame header is checked field by field, and so is the next frame's header
 *   when the head reaches it, so random bytes that happen to start with 0xFF are not audio.
 * - Ogg is accepted when its first page starts an Opus, Vorbis or FLAC stream (or when the head
 *   ends before that page's payload); any other Ogg stream, such as Theora video, is not.
 */

export type AudioContainer = 'wav' | 'mp3' | 'mp4' | 'aac' | 'ogg' | 'flac' | 'webm';
export type AudioCodec = 'pcm' | 'mp3' | 'aac' | 'opus' | 'vorbis' | 'flac';

export interface AudioFormat {
  container: AudioContainer;
  /** Named only when the head shows it (WAV's fmt chunk, Ogg's first page, a Matroska track). */
  codec?: AudioCodec;
  mimeType: string;
  /** Without the dot, for naming a stored copy. */
  extension: string;
}

/**
 * How many leading bytes callers should read (or all of a smaller file). Enough for every header
 * recognised here, for the WAV fmt chunk after a typical LIST/bext chunk, and for the tracks of a
 * browser-recorded WebM; larger ID3 tags are handled as described above.
 */
export const AUDIO_HEAD_BYTES = 4096;

const ACCEPTED_AUDIO_DESCRIPTION = 'WAV, MP3, M4A/AAC, OGG/Opus, FLAC or WebM';

/** The accepted kinds as users know them, for messages: 'WAV, MP3, M4A/AAC, OGG/Opus, FLAC or WebM'. */
export function describeAcceptedAudio(): string {
  return ACCEPTED_AUDIO_DESCRIPTION;
}

/** Returns the format the head shows, or undefined when it is not accepted audio (never throws). */
export function detectAudioFormat(head: Uint8Array): AudioFormat | undefined {
  if (startsWithAscii(head, 0, 'ID3')) return detectAfterId3(head);
  return (
    detectWav(head) ??
    detectFlac(head, 0) ??
    detectOgg(head) ??
    detectMatroska(head) ??
    detectMp4(head) ??
    detectAdtsStream(head, 0) ??
    detectMpegAudioStream(head, 0)
  );
}

// ---------------------------------------------------------------------------------------------
// Results

function formatOf(container: AudioContainer, codec?: AudioCodec): AudioFormat {
  const { mimeType, extension } = CONTAINER_TYPES[container];
  return codec === undefined ? { container, mimeType, extension } : { container, codec, mimeType, extension };
}

/** The media type of a stored container ("wav", "mp3", …); undefined for anything else ("text", "empty"). */
export function audioMimeTypeOf(container: string): string | undefined {
  return Object.hasOwn(CONTAINER_TYPES, container) ? CONTAINER_TYPES[container as AudioContainer].mimeType : undefined;
}

const CONTAINER_TYPES: Readonly<Record<AudioContainer, { mimeType: string; extension: string }>> = {
  wav: { mimeType: 'audio/wav', extension: 'wav' },
  mp3: { mimeType: 'audio/mpeg', extension: 'mp3' },
  mp4: { mimeType: 'audio/mp4', extension: 'm4a' },
  aac: { mimeType: 'audio/aac', extension: 'aac' },
  ogg: { mimeType: 'audio/ogg', extension: 'ogg' },
  flac: { mimeType: 'audio/flac', extension: 'flac' },
  webm: { mimeType: 'audio/webm', extension: 'webm' },
};

// ---------------------------------------------------------------------------------------------
// WAV: 'RIFF' (or 'RF64') size 'WAVE', then chunks; the 'fmt ' chunk names the sample encoding.

const WAVE_FORMAT_PCM = 0x0001;
const WAVE_FORMAT_IEEE_FLOAT = 0x0003;
const WAVE_FORMAT_MPEGLAYER3 = 0x0055;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

function detectWav(head: Uint8Array): AudioFormat | undefined {
  if (!(startsWithAscii(head, 0, 'RIFF') || startsWithAscii(head, 0, 'RF64')) || !startsWithAscii(head, 8, 'WAVE')) return undefined;
  return formatOf('wav', wavCodec(head));
}

function wavCodec(head: Uint8Array): AudioCodec | undefined {
  let offset = 12;
  while (offset + 8 <= head.length) {
    const size = uint32LE(head, offset + 4);
    if (size === undefined) return undefined;
    if (startsWithAscii(head, offset, 'fmt ')) {
      const formatTag = uint16LE(head, offset + 8);
      // WAVEFORMATEXTENSIBLE keeps the real format in the first two bytes of its SubFormat GUID.
      const effectiveTag = formatTag === WAVE_FORMAT_EXTENSIBLE ? uint16LE(head, offset + 8 + 24) : formatTag;
      if (effectiveTag === WAVE_FORMAT_PCM || effectiveTag === WAVE_FORMAT_IEEE_FLOAT) return 'pcm';
      if (effectiveTag === WAVE_FORMAT_MPEGLAYER3) return 'mp3';
      return undefined;
    }
    // Chunks are padded to an even length.
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// ID3v2: 'ID3', major version 2–4, revision, flags, then a 28-bit "syncsafe" size (7 bits a byte).

const ID3_HEADER_BYTES = 10;
const ID3_FOOTER_FLAG = 0x10;

function detectAfterId3(head: Uint8Array): AudioFormat | undefined {
  let offset = 0;
  // Some taggers write a second tag after the first.
  while (startsWithAscii(head, offset, 'ID3')) {
    const tagLength = id3TagLength(head, offset);
    if (tagLength === undefined) return undefined;
    offset += tagLength;
  }
  // Padding beyond the declared size is sometimes left as zeros.
  while (offset < head.length && head[offset] === 0) offset += 1;
  if (offset + 4 > head.length) return formatOf('mp3');
  return detectFlac(head, offset) ?? detectAdtsStream(head, offset) ?? detectMpegAudioStream(head, offset);
}

function id3TagLength(head: Uint8Array, offset: number): number | undefined {
  const header = bytesAt(head, offset, ID3_HEADER_BYTES);
  if (header === undefined) return undefined;
  const [, , , major = 0, revision = 0, flags = 0, ...sizeBytes] = header;
  if (major < 2 || major > 4 || revision === 0xff || (flags & 0x0f) !== 0) return undefined;
  if (sizeBytes.some((byte) => byte >= 0x80)) return undefined;
  const size = sizeBytes.reduce((total, byte) => total * 128 + byte, 0);
  return ID3_HEADER_BYTES + size + (flags & ID3_FOOTER_FLAG ? ID3_HEADER_BYTES : 0);
}

// ---------------------------------------------------------------------------------------------
// MPEG audio layer III frames: an 11-bit sync, then version, layer, bitrate and sample-rate fields.

const MPEG_VERSION_1 = 0b11;
const MPEG_VERSION_2 = 0b10;
const MPEG_VERSION_2_5 = 0b00;
const MPEG_LAYER_3 = 0b01;
const LAYER_3_KBPS: Readonly<Record<number, readonly number[]>> = {
  [MPEG_VERSION_1]: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  [MPEG_VERSION_2]: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  [MPEG_VERSION_2_5]: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MPEG_SAMPLE_RATES: Readonly<Record<number, readonly number[]>> = {
  [MPEG_VERSION_1]: [44100, 48000, 32000],
  [MPEG_VERSION_2]: [22050, 24000, 16000],
  [MPEG_VERSION_2_5]: [11025, 12000, 8000],
};

interface FrameHeader {
  /** Bytes from this header to the next one. */
  frameLength: number;
  /** Fields every frame of one stream shares. */
  streamKey: number;
}

function readMpegAudioFrame(head: Uint8Array, offset: number): FrameHeader | undefined {
  const header = bytesAt(head, offset, 4);
  if (header === undefined) return undefined;
  const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = header;
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11;
  const bitrateIndex = b2 >> 4;
  const sampleRateIndex = (b2 >> 2) & 0b11;
  const padding = (b2 >> 1) & 1;
  const emphasis = b3 & 0b11;
  const kbps = LAYER_3_KBPS[version]?.[bitrateIndex];
  const sampleRate = MPEG_SAMPLE_RATES[version]?.[sampleRateIndex];
  // Layer I and II are not MP3; bitrate 0 is "free format", which players rarely handle; emphasis 2 is reserved.
  if (layer !== MPEG_LAYER_3 || kbps === undefined || kbps === 0 || sampleRate === undefined || emphasis === 0b10) return undefined;
  const samplesPerFrameOver8 = version === MPEG_VERSION_1 ? 144 : 72;
  return {
    frameLength: Math.floor((samplesPerFrameOver8 * kbps * 1000) / sampleRate) + padding,
    streamKey: (version << 2) | sampleRateIndex,
  };
}

function detectMpegAudioStream(head: Uint8Array, offset: number): AudioFormat | undefined {
  return isFrameStream(head, offset, readMpegAudioFrame) ? formatOf('mp3') : undefined;
}

// ---------------------------------------------------------------------------------------------
// AAC in ADTS frames: a 12-bit sync 0xFFF, layer 00, then profile, sample-rate index and length.

const ADTS_SAMPLE_RATE_INDEXES = 13; // 0–12 are defined; 13–14 are reserved and 15 is not allowed in ADTS.

function readAdtsFrame(head: Uint8Array, offset: number): FrameHeader | undefined {
  const header = bytesAt(head, offset, 7);
  if (header === undefined) return undefined;
  const [b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0] = header;
  // 0xFFF1 / 0xFFF9 (MPEG-4 / MPEG-2 without CRC) and 0xFFF0 / 0xFFF8 (with CRC).
  if (b0 !== 0xff || (b1 & 0xf6) !== 0xf0) return undefined;
  const protectionAbsent = b1 & 1;
  const sampleRateIndex = (b2 >> 2) & 0x0f;
  const frameLength = ((b3 & 0x03) << 11) | (b4 << 3) | (b5 >> 5);
  const headerLength = protectionAbsent ? 7 : 9;
  if (sampleRateIndex >= ADTS_SAMPLE_RATE_INDEXES || frameLength <= headerLength) return undefined;
  return { frameLength, streamKey: (b1 << 8) | (b2 & 0xfc) };
}

function detectAdtsStream(head: Uint8Array, offset: number): AudioFormat | undefined {
  return isFrameStream(head, offset, readAdtsFrame) ? formatOf('aac', 'aac') : undefined;
}

/** A valid frame header at offset, and a matching one where it says the next frame starts, when the head reaches that far. */
function isFrameStream(head: Uint8Array, offset: number, readFrame: (head: Uint8Array, offset: number) => FrameHeader | undefined): boolean {
  const first = readFrame(head, offset);
  if (first === undefined) return false;
  const nextOffset = offset + first.frameLength;
  if (nextOffset + 4 > head.length) return true;
  const next = readFrame(head, nextOffset);
  if (next !== undefined) return next.streamKey === first.streamKey;
  // The next header may be cut off by the end of the head (ADTS headers are 7 bytes).
  return nextOffset + 7 > head.length && head[nextOffset] === 0xff;
}

// ---------------------------------------------------------------------------------------------
// FLAC: 'fLaC', then metadata blocks of which the first must be STREAMINFO (type 0, 34 bytes).

const FLAC_STREAMINFO_BYTES = 34;

function detectFlac(head: Uint8Array, offset: number): AudioFormat | undefined {
  if (!startsWithAscii(head, offset, 'fLaC')) return undefined;
  const blockHeader = bytesAt(head, offset + 4, 4);
  if (blockHeader !== undefined) {
    const [typeByte = 0, l0 = 0, l1 = 0, l2 = 0] = blockHeader;
    const blockType = typeByte & 0x7f;
    const blockLength = (l0 << 16) | (l1 << 8) | l2;
    if (blockType !== 0 || blockLength !== FLAC_STREAMINFO_BYTES) return undefined;
  }
  return formatOf('flac', 'flac');
}

// ---------------------------------------------------------------------------------------------
// Ogg: pages start 'OggS', version 0; the first page's payload is the first stream's identification header.

const OGG_SEGMENT_COUNT_OFFSET = 26;

function detectOgg(head: Uint8Array): AudioFormat | undefined {
  if (!startsWithAscii(head, 0, 'OggS') || head[4] !== 0) return undefined;
  const segmentCount = head[OGG_SEGMENT_COUNT_OFFSET];
  if (segmentCount === undefined) return formatOf('ogg');
  const payload = OGG_SEGMENT_COUNT_OFFSET + 1 + segmentCount;
  if (startsWithAscii(head, payload, 'OpusHead')) return { ...formatOf('ogg', 'opus'), extension: 'opus' };
  if (startsWithAscii(head, payload, '\x01vorbis')) return formatOf('ogg', 'vorbis');
  if (startsWithAscii(head, payload, '\x7fFLAC')) return formatOf('ogg', 'flac');
  // Too short to see the payload's signature: judge by the page header alone.
  if (payload + 8 > head.length) return formatOf('ogg');
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// WebM / Matroska: an EBML header element (ID 0x1A45DFA3) whose DocType child names the format.

const EBML_HEADER_ID = 0x1a45dfa3;
const EBML_DOCTYPE_ID = 0x4282;
const EBML_DOCTYPE_MAX_BYTES = 32;
const MATROSKA_CODEC_ID = 0x86;

function detectMatroska(head: Uint8Array): AudioFormat | undefined {
  const header = readEbmlElement(head, 0);
  if (header === undefined || header.id !== EBML_HEADER_ID) return undefined;
  const headerEnd = Math.min(header.dataOffset + header.size, head.length);
  let offset = header.dataOffset;
  while (offset < headerEnd) {
    const child = readEbmlElement(head, offset);
    if (child === undefined) return undefined;
    if (child.id === EBML_DOCTYPE_ID) {
      if (child.size > EBML_DOCTYPE_MAX_BYTES) return undefined;
      const docType = ascii(head, child.dataOffset, child.size)?.replace(/\0+$/, '');
      const codec = matroskaAudioCodec(head, header.dataOffset + header.size);
      if (docType === 'webm') return formatOf('webm', codec);
      if (docType === 'matroska') return { ...formatOf('webm', codec), mimeType: 'audio/x-matroska', extension: 'mka' };
      return undefined;
    }
    offset = child.dataOffset + child.size;
  }
  return undefined;
}

/** The codec of the first audio track whose CodecID ('A_OPUS', 'A_VORBIS'…) lies within the head. */
function matroskaAudioCodec(head: Uint8Array, from: number): AudioCodec | undefined {
  for (let offset = from; offset + 4 < head.length; offset += 1) {
    if (head[offset] !== MATROSKA_CODEC_ID) continue;
    const size = readEbmlVint(head, offset + 1);
    if (size === undefined || size.length !== 1) continue;
    const codecId = ascii(head, offset + 2, size.value);
    if (codecId === undefined || !codecId.startsWith('A_')) continue;
    return MATROSKA_AUDIO_CODECS.find(([prefix]) => codecId.startsWith(prefix))?.[1];
  }
  return undefined;
}

const MATROSKA_AUDIO_CODECS: ReadonlyArray<readonly [string, AudioCodec]> = [
  ['A_OPUS', 'opus'],
  ['A_VORBIS', 'vorbis'],
  ['A_AAC', 'aac'],
  ['A_FLAC', 'flac'],
  ['A_MPEG/L3', 'mp3'],
  ['A_PCM/', 'pcm'],
];

interface EbmlElement {
  id: number;
  size: number;
  dataOffset: number;
}

function readEbmlElement(head: Uint8Array, offset: number): EbmlElement | undefined {
  // IDs keep their length-marker bits; sizes drop them.
  const id = readEbmlVint(head, offset, { keepMarker: true, maxLength: 4 });
  if (id === undefined) return undefined;
  const size = readEbmlVint(head, offset + id.length);
  if (size === undefined) return undefined;
  return { id: id.value, size: size.value, dataOffset: offset + id.length + size.length };
}

/** EBML's variable-length integer: the count of leading zero bits in the first byte gives the length. */
function readEbmlVint(head: Uint8Array, offset: number, options: { keepMarker?: boolean; maxLength?: number } = {}): { value: number; length: number } | undefined {
  const first = head[offset];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (length > (options.maxLength ?? 8)) return undefined;
  const bytes = bytesAt(head, offset, length);
  if (bytes === undefined) return undefined;
  const firstValue = options.keepMarker ? first : first & (0xff >> length);
  const value = bytes.subarray(1).reduce((total, byte) => total * 256 + byte, firstValue);
  return { value, length };
}

// ---------------------------------------------------------------------------------------------
// MP4 / M4A: an 'ftyp' box at offset 4 listing a major brand and compatible brands.

const AUDIO_MP4_BRANDS: ReadonlySet<string> = new Set(['M4A ', 'M4B ', 'mp41', 'mp42', 'isom', 'iso2', 'iso4', 'iso5', 'iso6', 'dash']);
const FTYP_MIN_BYTES = 16;

function detectMp4(head: Uint8Array): AudioFormat | undefined {
  const boxSize = uint32BE(head, 0);
  if (boxSize === undefined || !startsWithAscii(head, 4, 'ftyp') || boxSize < FTYP_MIN_BYTES || boxSize % 4 !== 0) return undefined;
  const brands = [ascii(head, 8, 4)];
  for (let offset = FTYP_MIN_BYTES; offset + 4 <= Math.min(boxSize, head.length); offset += 4) brands.push(ascii(head, offset, 4));
  return brands.some((brand) => brand !== undefined && AUDIO_MP4_BRANDS.has(brand)) ? formatOf('mp4') : undefined;
}

// ---------------------------------------------------------------------------------------------
// Bounds-checked reads: each returns undefined (or false) past the end, so a short head never throws.

function bytesAt(head: Uint8Array, offset: number, length: number): Uint8Array | undefined {
  return offset >= 0 && length >= 0 && offset + length <= head.length ? head.subarray(offset, offset + length) : undefined;
}

function startsWithAscii(head: Uint8Array, offset: number, text: string): boolean {
  return ascii(head, offset, text.length) === text;
}

/** Callers keep length small (signatures, brands, a DocType): it is read into a string whole. */
function ascii(head: Uint8Array, offset: number, length: number): string | undefined {
  const bytes = bytesAt(head, offset, length);
  return bytes === undefined ? undefined : Array.from(bytes, (byte) => String.fromCharCode(byte)).join('');
}

function uint16LE(head: Uint8Array, offset: number): number | undefined {
  const bytes = bytesAt(head, offset, 2);
  return bytes === undefined ? undefined : new DataView(bytes.buffer, bytes.byteOffset, 2).getUint16(0, true);
}

function uint32LE(head: Uint8Array, offset: number): number | undefined {
  const bytes = bytesAt(head, offset, 4);
  return bytes === undefined ? undefined : new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
}

function uint32BE(head: Uint8Array, offset: number): number | undefined {
  const bytes = bytesAt(head, offset, 4);
  return bytes === undefined ? undefined : new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, false);
}
