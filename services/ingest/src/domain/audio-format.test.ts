import { describe, expect, it } from 'vitest';
import { AUDIO_HEAD_BYTES, audioMimeTypeOf, describeAcceptedAudio, detectAudioFormat } from './audio-format.js';

// Headers are built byte by byte from the formats' specifications, so each test shows which
// fields the detection relies on.

type Part = string | number[] | Uint8Array;

/** Concatenates parts; a string stands for its Latin-1 bytes. */
function bytes(...parts: Part[]): Uint8Array {
  const arrays = parts.map((part) => (typeof part === 'string' ? Uint8Array.from(part, (char) => char.charCodeAt(0)) : Uint8Array.from(part)));
  const result = new Uint8Array(arrays.reduce((total, array) => total + array.length, 0));
  let offset = 0;
  for (const array of arrays) {
    result.set(array, offset);
    offset += array.length;
  }
  return result;
}

const zeros = (length: number): number[] => new Array<number>(length).fill(0);
const le16 = (value: number): number[] => [value & 0xff, (value >> 8) & 0xff];
const le32 = (value: number): number[] => [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, (value >>> 24) & 0xff];
const be32 = (value: number): number[] => [(value >>> 24) & 0xff, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];

/** A deterministic generator, so a failing "random bytes" case can be reproduced. */
function seededBytes(seed: number, length: number): Uint8Array {
  let state = seed >>> 0;
  return Uint8Array.from({ length }, () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state >>> 24;
  });
}

// --- WAV ---------------------------------------------------------------------------------------

function wavFmtChunk(formatTag: number, subFormatTag?: number): number[] {
  const base = [...le16(formatTag), ...le16(1), ...le32(16000), ...le32(32000), ...le16(2), ...le16(16)];
  if (subFormatTag === undefined) return [...bytes('fmt '), ...le32(base.length), ...base];
  // WAVEFORMATEXTENSIBLE: cbSize, valid bits, channel mask, then the SubFormat GUID (format tag first).
  const extension = [...le16(22), ...le16(16), ...le32(4), ...le16(subFormatTag), ...zeros(14)];
  return [...bytes('fmt '), ...le32(base.length + extension.length), ...base, ...extension];
}

function wav(formatTag: number, options: { subFormatTag?: number; chunksBefore?: number[] } = {}): Uint8Array {
  const body = bytes('WAVE', options.chunksBefore ?? [], wavFmtChunk(formatTag, options.subFormatTag), 'data', le32(4), zeros(4));
  return bytes('RIFF', le32(body.length), body);
}

// --- MPEG audio and ID3 ----------------------------------------------------------------------------

interface MpegFrameOptions {
  versionBits?: number;
  layerBits?: number;
  bitrateIndex?: number;
  sampleRateIndex?: number;
  emphasis?: number;
}

/** One layer III frame header: sync, version, layer, no CRC; bitrate, sample rate, no padding; stereo. */
function mpegFrameHeader({ versionBits = 0b11, layerBits = 0b01, bitrateIndex = 9, sampleRateIndex = 0, emphasis = 0 }: MpegFrameOptions = {}): number[] {
  return [0xff, 0xe0 | (versionBits << 3) | (layerBits << 1) | 1, (bitrateIndex << 4) | (sampleRateIndex << 2), emphasis];
}

/** MPEG-1 layer III, 128 kbps, 44.1 kHz: 417-byte frames. */
function mp3Frames(count: number): Uint8Array {
  const frame = [...mpegFrameHeader(), ...zeros(417 - 4)];
  return bytes(...Array.from({ length: count }, () => frame));
}

function syncsafe(size: number): number[] {
  return [(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f];
}

/** An ID3v2.4 tag with one text frame, padded to bodySize bytes. */
function id3Tag(bodySize = 64, options: { major?: number; footer?: boolean } = {}): Uint8Array {
  const frame = bytes('TIT2', syncsafe(5), [0, 0], [3], 'Call'); // UTF-8 encoding byte, then the title
  const body = bytes(frame, zeros(bodySize - frame.length));
  const flags = options.footer ? 0x10 : 0;
  const header = bytes('ID3', [options.major ?? 4, 0, flags], syncsafe(bodySize));
  return options.footer ? bytes(header, body, '3DI', [options.major ?? 4, 0, flags], syncsafe(bodySize)) : bytes(header, body);
}

// --- AAC (ADTS) ------------------------------------------------------------------------------------

/** An ADTS header for AAC-LC, 44.1 kHz, stereo, followed by its payload. mpeg2 sets the ID bit (0xFFF9). */
function adtsFrame(frameLength = 200, options: { mpeg2?: boolean; sampleRateIndex?: number } = {}): Uint8Array {
  const profile = 1; // AAC-LC, stored as object type - 1
  const channels = 2;
  const sampleRateIndex = options.sampleRateIndex ?? 4;
  const header = [
    0xff,
    options.mpeg2 ? 0xf9 : 0xf1,
    (profile << 6) | (sampleRateIndex << 2) | (channels >> 2),
    ((channels & 0x3) << 6) | ((frameLength >> 11) & 0x3),
    (frameLength >> 3) & 0xff,
    ((frameLength & 0x7) << 5) | 0x1f,
    0xfc,
  ];
  return bytes(header, zeros(frameLength - header.length));
}

// --- FLAC, Ogg, Matroska, MP4 ------------------------------------------------------------------

function flacHeader(): Uint8Array {
  // 'fLaC', then a last-block STREAMINFO header (type 0, 34 bytes) and its body.
  return bytes('fLaC', [0x80, 0, 0, 34], zeros(34));
}

/** The first (beginning-of-stream) Ogg page, carrying payload in one segment. */
function oggFirstPage(payload: Uint8Array): Uint8Array {
  return bytes('OggS', [0, 0x02], zeros(8), le32(0x1234), le32(0), le32(0), [1, payload.length], payload);
}

const opusHead = (): Uint8Array => bytes('OpusHead', [1, 2], le16(312), le32(48000), le16(0), [0]);
const vorbisIdentification = (): Uint8Array => bytes('\x01vorbis', le32(0), [2], le32(44100), zeros(13));

/** An EBML element with a one-byte size (enough for the small elements built here). */
function ebmlElement(id: number[], data: Part): Uint8Array {
  const body = bytes(data);
  return bytes(id, [0x80 | body.length], body);
}

function matroska(docType: string, codecId?: string): Uint8Array {
  const header = ebmlElement([0x1a, 0x45, 0xdf, 0xa3], bytes(ebmlElement([0x42, 0x86], [1]), ebmlElement([0x42, 0x82], docType), ebmlElement([0x42, 0x87], [4])));
  if (codecId === undefined) return header;
  const trackEntry = ebmlElement([0xae], bytes(ebmlElement([0xd7], [1]), ebmlElement([0x83], [2]), ebmlElement([0x86], codecId)));
  const tracks = ebmlElement([0x16, 0x54, 0xae, 0x6b], trackEntry);
  // A Segment of unknown size, as MediaRecorder writes while recording.
  return bytes(header, [0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], tracks);
}

function ftyp(majorBrand: string, compatibleBrands: string[]): Uint8Array {
  const body = bytes(majorBrand, be32(0), ...compatibleBrands);
  return bytes(be32(8 + body.length), 'ftyp', body, be32(8), 'free');
}

// -----------------------------------------------------------------------------------------------

describe('detectAudioFormat', () => {
  describe('WAV', () => {
    it('recognises RIFF/WAVE with PCM samples', () => {
      expect(detectAudioFormat(wav(1))).toEqual({ container: 'wav', codec: 'pcm', mimeType: 'audio/wav', extension: 'wav' });
    });

    it('counts IEEE float samples as PCM', () => {
      expect(detectAudioFormat(wav(3))?.codec).toBe('pcm');
    });

    it('reads the real format of WAVE_FORMAT_EXTENSIBLE from its SubFormat', () => {
      expect(detectAudioFormat(wav(0xfffe, { subFormatTag: 1 }))?.codec).toBe('pcm');
      expect(detectAudioFormat(wav(0xfffe, { subFormatTag: 3 }))?.codec).toBe('pcm');
    });

    it('finds the fmt chunk after other chunks, including an odd-sized padded one', () => {
      const list = [...bytes('LIST'), ...le32(5), ...bytes('INFOx'), 0];
      expect(detectAudioFormat(wav(1, { chunksBefore: list }))?.codec).toBe('pcm');
    });

    it('accepts telephony encodings such as µ-law without naming a codec', () => {
      expect(detectAudioFormat(wav(7))).toEqual({ container: 'wav', mimeType: 'audio/wav', extension: 'wav' });
    });

    it('accepts a WAV whose fmt chunk lies beyond the head, without a codec', () => {
      expect(detectAudioFormat(wav(1).subarray(0, 12))).toEqual({ container: 'wav', mimeType: 'audio/wav', extension: 'wav' });
    });

    it('rejects a RIFF file that is not WAVE (an AVI)', () => {
      expect(detectAudioFormat(bytes('RIFF', le32(100), 'AVI LIST', zeros(20)))).toBeUndefined();
    });
  });

  describe('MP3', () => {
    it('recognises a stream of MPEG-1 layer III frames', () => {
      expect(detectAudioFormat(mp3Frames(3))).toEqual({ container: 'mp3', mimeType: 'audio/mpeg', extension: 'mp3' });
    });

    it('recognises MPEG-2 and MPEG-2.5 layer III frames (low-rate speech)', () => {
      const mpeg2 = bytes(mpegFrameHeader({ versionBits: 0b10, bitrateIndex: 4, sampleRateIndex: 2 }), zeros(140)); // 32 kbps, 16 kHz: 144-byte frames
      expect(detectAudioFormat(bytes(mpeg2, mpeg2))?.container).toBe('mp3');
      const mpeg25 = bytes(mpegFrameHeader({ versionBits: 0b00, bitrateIndex: 1, sampleRateIndex: 2 }), zeros(68)); // 8 kbps, 8 kHz: 72-byte frames
      expect(detectAudioFormat(bytes(mpeg25, mpeg25))?.container).toBe('mp3');
    });

    it('accepts a single frame header when the head ends before the next frame', () => {
      expect(detectAudioFormat(bytes(mpegFrameHeader(), zeros(100)))?.container).toBe('mp3');
    });

    it('skips an ID3v2 tag to the first frame', () => {
      expect(detectAudioFormat(bytes(id3Tag(), mp3Frames(2)))?.container).toBe('mp3');
      expect(detectAudioFormat(bytes(id3Tag(64, { major: 3 }), mp3Frames(2)))?.container).toBe('mp3');
    });

    it('skips an ID3v2.4 tag with a footer, a second tag and zero padding', () => {
      expect(detectAudioFormat(bytes(id3Tag(64, { footer: true }), id3Tag(32), zeros(50), mp3Frames(2)))?.container).toBe('mp3');
    });

    it('takes an ID3 tag that runs past the head (large cover art) as MP3', () => {
      const head = bytes(id3Tag(100_000)).subarray(0, AUDIO_HEAD_BYTES);
      expect(detectAudioFormat(head)?.container).toBe('mp3');
    });

    it('rejects an ID3 tag followed by something that is not audio', () => {
      expect(detectAudioFormat(bytes(id3Tag(), 'Just some notes about the call.'))).toBeUndefined();
    });

    it('rejects a malformed ID3 header', () => {
      expect(detectAudioFormat(bytes('ID3', [9, 0, 0], syncsafe(10), zeros(10), mp3Frames(1)))).toBeUndefined(); // version 2.9
      expect(detectAudioFormat(bytes('ID3', [4, 0, 0], [0, 0, 0x80, 0], zeros(10), mp3Frames(1)))).toBeUndefined(); // size byte not syncsafe
    });

    it('rejects 0xFFFB with an invalid bitrate index', () => {
      expect(detectAudioFormat(bytes(mpegFrameHeader({ bitrateIndex: 15 }), zeros(600)))).toBeUndefined();
      expect(detectAudioFormat(bytes([0xff, 0xfb, 0xf0, 0x00], zeros(600)))).toBeUndefined();
    });

    it('rejects free-format bitrate, a reserved sample rate, a reserved version and reserved emphasis', () => {
      expect(detectAudioFormat(bytes(mpegFrameHeader({ bitrateIndex: 0 }), zeros(600)))).toBeUndefined();
      expect(detectAudioFormat(bytes(mpegFrameHeader({ sampleRateIndex: 3 }), zeros(600)))).toBeUndefined();
      expect(detectAudioFormat(bytes(mpegFrameHeader({ versionBits: 0b01 }), zeros(600)))).toBeUndefined();
      expect(detectAudioFormat(bytes(mpegFrameHeader({ emphasis: 2 }), zeros(600)))).toBeUndefined();
    });

    it('rejects layer I and layer II frames, which are not MP3', () => {
      expect(detectAudioFormat(bytes(mpegFrameHeader({ layerBits: 0b10 }), zeros(600)))).toBeUndefined();
      expect(detectAudioFormat(bytes(mpegFrameHeader({ layerBits: 0b11 }), zeros(600)))).toBeUndefined();
    });

    it('rejects a valid-looking first header when no frame follows where it says', () => {
      expect(detectAudioFormat(bytes(mpegFrameHeader(), zeros(1000)))).toBeUndefined();
    });
  });

  describe('M4A / MP4', () => {
    it.each([
      ['M4A ', ['M4A ', 'mp42', 'isom']],
      ['M4B ', ['M4B ']],
      ['mp42', ['mp42', 'isom']],
      ['isom', ['iso2', 'mp41']],
      ['dash', ['iso6', 'mp41']],
      ['3gp4', ['isom', '3gp4']],
    ])('recognises an ftyp box with major brand %j', (major, compatible) => {
      expect(detectAudioFormat(ftyp(major, compatible))).toEqual({ container: 'mp4', mimeType: 'audio/mp4', extension: 'm4a' });
    });

    it('rejects ISO media that is not audio, such as a HEIC photo or a QuickTime movie', () => {
      expect(detectAudioFormat(ftyp('heic', ['mif1', 'heic']))).toBeUndefined();
      expect(detectAudioFormat(ftyp('qt  ', ['qt  ']))).toBeUndefined();
    });

    it('rejects an ftyp box with an impossible size', () => {
      expect(detectAudioFormat(bytes(be32(10), 'ftypM4A ', zeros(8)))).toBeUndefined();
    });
  });

  describe('AAC (ADTS)', () => {
    it('recognises MPEG-4 (0xFFF1) and MPEG-2 (0xFFF9) ADTS streams', () => {
      expect(detectAudioFormat(bytes(adtsFrame(), adtsFrame()))).toEqual({ container: 'aac', codec: 'aac', mimeType: 'audio/aac', extension: 'aac' });
      expect(detectAudioFormat(bytes(adtsFrame(180, { mpeg2: true }), adtsFrame(180, { mpeg2: true })))?.container).toBe('aac');
    });

    it('recognises ADTS after an ID3 tag (as HLS segments carry it)', () => {
      expect(detectAudioFormat(bytes(id3Tag(), adtsFrame(), adtsFrame()))?.container).toBe('aac');
    });

    it('rejects a reserved sample-rate index and a frame shorter than its header', () => {
      expect(detectAudioFormat(bytes(adtsFrame(200, { sampleRateIndex: 13 }), adtsFrame()))).toBeUndefined();
      expect(detectAudioFormat(bytes([0xff, 0xf1, 0x50, 0x80, 0x00, 0x1f, 0xfc], zeros(100)))).toBeUndefined();
    });

    it('rejects a frame that is not followed by another where its length says', () => {
      expect(detectAudioFormat(bytes(adtsFrame(), zeros(300)))).toBeUndefined();
    });
  });

  describe('Ogg', () => {
    it('names Opus from the OpusHead packet, with the .opus extension', () => {
      expect(detectAudioFormat(oggFirstPage(opusHead()))).toEqual({ container: 'ogg', codec: 'opus', mimeType: 'audio/ogg', extension: 'opus' });
    });

    it('names Vorbis from its identification header', () => {
      expect(detectAudioFormat(oggFirstPage(vorbisIdentification()))).toEqual({ container: 'ogg', codec: 'vorbis', mimeType: 'audio/ogg', extension: 'ogg' });
    });

    it('names FLAC in Ogg', () => {
      expect(detectAudioFormat(oggFirstPage(bytes('\x7fFLAC', [1, 0], [0, 1], 'fLaC', zeros(38))))).toMatchObject({ container: 'ogg', codec: 'flac' });
    });

    it('rejects an Ogg stream that is not audio (Theora video)', () => {
      expect(detectAudioFormat(oggFirstPage(bytes('\x80theora', zeros(35))))).toBeUndefined();
    });

    it('judges by the page header when the head ends before the first packet', () => {
      expect(detectAudioFormat(oggFirstPage(opusHead()).subarray(0, 20))).toEqual({ container: 'ogg', mimeType: 'audio/ogg', extension: 'ogg' });
    });
  });

  describe('FLAC', () => {
    it('recognises fLaC with its STREAMINFO block', () => {
      expect(detectAudioFormat(flacHeader())).toEqual({ container: 'flac', codec: 'flac', mimeType: 'audio/flac', extension: 'flac' });
    });

    it('recognises FLAC after an ID3 tag', () => {
      expect(detectAudioFormat(bytes(id3Tag(), flacHeader()))?.container).toBe('flac');
    });

    it('rejects fLaC whose first block is not STREAMINFO', () => {
      expect(detectAudioFormat(bytes('fLaC', [0x04, 0, 0, 40], zeros(40)))).toBeUndefined();
    });
  });

  describe('WebM and Matroska', () => {
    it('recognises a WebM EBML header and names the codec of its audio track', () => {
      expect(detectAudioFormat(matroska('webm', 'A_OPUS'))).toEqual({ container: 'webm', codec: 'opus', mimeType: 'audio/webm', extension: 'webm' });
      expect(detectAudioFormat(matroska('webm', 'A_VORBIS'))?.codec).toBe('vorbis');
    });

    it('recognises WebM whose tracks lie beyond the head, without a codec', () => {
      expect(detectAudioFormat(matroska('webm'))).toEqual({ container: 'webm', mimeType: 'audio/webm', extension: 'webm' });
    });

    it('accepts Matroska audio in the webm container, labelled as Matroska', () => {
      expect(detectAudioFormat(matroska('matroska', 'A_AAC'))).toEqual({ container: 'webm', codec: 'aac', mimeType: 'audio/x-matroska', extension: 'mka' });
    });

    it('rejects an EBML document of another type', () => {
      expect(detectAudioFormat(matroska('notmkv'))).toBeUndefined();
    });
  });

  describe('what is not audio', () => {
    it.each([
      ['a PNG image', bytes([0x89], 'PNG\r\n\x1a\n', be32(13), 'IHDR', zeros(17))],
      ['a PDF', bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n')],
      ['a text file named call.mp3', bytes('Rep: Hello, thanks for taking my call today.\nContact: Sure, go ahead.\n')],
      ['a zip archive', bytes('PK\x03\x04', [20, 0, 0, 0, 8, 0], zeros(16), [9, 0, 0, 0], 'notes.txt', zeros(40))],
      ['a JPEG photo', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF\0', zeros(100))],
      ['empty input', new Uint8Array(0)],
      ['3 bytes', bytes([0xff, 0xfb, 0x90])],
      ['a run of 0xFF bytes', new Uint8Array(AUDIO_HEAD_BYTES).fill(0xff)],
    ])('rejects %s', (_name, head) => {
      expect(detectAudioFormat(head)).toBeUndefined();
    });

    it('rejects random bytes', () => {
      for (let seed = 1; seed <= 500; seed += 1) expect(detectAudioFormat(seededBytes(seed, AUDIO_HEAD_BYTES)), `seed ${seed}`).toBeUndefined();
    });
  });

  it('never throws on any prefix of a valid header, and needs at least 4 bytes', () => {
    const samples = [
      wav(0xfffe, { subFormatTag: 1 }),
      mp3Frames(2),
      bytes(id3Tag(64, { footer: true }), flacHeader()),
      ftyp('M4A ', ['isom']),
      bytes(adtsFrame(), adtsFrame()),
      oggFirstPage(opusHead()),
      flacHeader(),
      matroska('webm', 'A_OPUS'),
    ];
    for (const sample of samples) {
      for (let length = 0; length <= sample.length; length += 1) {
        const prefix = sample.subarray(0, length);
        expect(() => detectAudioFormat(prefix)).not.toThrow();
        if (length < 4) expect(detectAudioFormat(prefix)).toBeUndefined();
      }
    }
  });

  it('reads a head that is a view into a larger buffer', () => {
    const buffer = bytes('junk', flacHeader());
    expect(detectAudioFormat(buffer.subarray(4))?.container).toBe('flac');
  });
});

describe('describeAcceptedAudio', () => {
  it('lists the accepted kinds as users know them', () => {
    expect(describeAcceptedAudio()).toBe('WAV, MP3, M4A/AAC, OGG/Opus, FLAC or WebM');
  });
});

describe('AUDIO_HEAD_BYTES', () => {
  it('is 4 KiB', () => {
    expect(AUDIO_HEAD_BYTES).toBe(4096);
  });
});

describe('audioMimeTypeOf', () => {
  it('names the media type a browser plays a stored container as, and none for text', () => {
    expect(audioMimeTypeOf('mp3')).toBe('audio/mpeg');
    expect(audioMimeTypeOf('mp4')).toBe('audio/mp4');
    expect(audioMimeTypeOf('text')).toBeUndefined();
    expect(audioMimeTypeOf('toString')).toBeUndefined();
  });
});
