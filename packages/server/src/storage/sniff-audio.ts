/** An audio container recognised by its leading bytes, with its file extension and media type. */
export type SniffedAudio = {
  format: 'wav' | 'mp3' | 'ogg' | 'flac' | 'm4a';
  extension: string;
  contentType: string;
};

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length));

/** ISO base-media brands of audio files (`M4A `, `M4B `) and of the generic MP4 brands AAC files carry. */
const M4A_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'mp41', 'mp42', 'isom', 'iso2', 'dash', 'F4A ']);

/** An MPEG audio frame header: 11 sync bits, a valid version and a layer (AAC/ADTS has layer 0). */
const isMpegFrame = (b: Uint8Array) =>
  b[0] === 0xff &&
  ((b[1] ?? 0) & 0xe0) === 0xe0 &&
  ((b[1] ?? 0) & 0x18) !== 0x08 &&
  ((b[1] ?? 0) & 0x06) !== 0;

/**
 * The audio container of `bytes` judged by magic bytes alone (never the client's file name or
 * content type): WAV (`RIFF....WAVE`), MP3 (ID3 tag or an MPEG frame), OGG (`OggS`), FLAC
 * (`fLaC`) or M4A (`ftyp` box with an audio or generic MP4 brand). Null for anything else.
 */
export const sniffAudio = (bytes: Uint8Array): SniffedAudio | null => {
  if (bytes.length < 12) return null;
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') {
    return { format: 'wav', extension: 'wav', contentType: 'audio/wav' };
  }
  if (ascii(bytes, 0, 4) === 'fLaC') return { format: 'flac', extension: 'flac', contentType: 'audio/flac' };
  if (ascii(bytes, 0, 4) === 'OggS') return { format: 'ogg', extension: 'ogg', contentType: 'audio/ogg' };
  if (ascii(bytes, 4, 4) === 'ftyp' && M4A_BRANDS.has(ascii(bytes, 8, 4))) {
    return { format: 'm4a', extension: 'm4a', contentType: 'audio/mp4' };
  }
  if (ascii(bytes, 0, 3) === 'ID3' || isMpegFrame(bytes)) {
    return { format: 'mp3', extension: 'mp3', contentType: 'audio/mpeg' };
  }
  return null;
};
