import { open, readFile } from 'node:fs/promises';
import { fileTypeFromBuffer } from 'file-type';

/** An audio container recognised by its content, with its file extension and media type. */
export type SniffedAudio = {
  format: 'wav' | 'mp3' | 'ogg' | 'flac' | 'm4a';
  extension: string;
  contentType: string;
};

const WAV: SniffedAudio = { format: 'wav', extension: 'wav', contentType: 'audio/wav' };
const MP3: SniffedAudio = { format: 'mp3', extension: 'mp3', contentType: 'audio/mpeg' };
const OGG: SniffedAudio = { format: 'ogg', extension: 'ogg', contentType: 'audio/ogg' };
const FLAC: SniffedAudio = { format: 'flac', extension: 'flac', contentType: 'audio/flac' };
const M4A: SniffedAudio = { format: 'm4a', extension: 'm4a', contentType: 'audio/mp4' };

/**
 * `file-type` extensions taken as each container. Ogg Vorbis, Opus and Speex are audio; Ogg
 * Theora (`ogv`, `ogm`) and unknown Ogg (`ogx`) are not. ADTS AAC (`aac`) is refused, as before.
 */
const BY_EXTENSION: Readonly<Record<string, SniffedAudio>> = {
  wav: WAV,
  mp3: MP3,
  ogg: OGG,
  oga: OGG,
  opus: OGG,
  spx: OGG,
  flac: FLAC,
  m4a: M4A,
  m4b: M4A,
  f4a: M4A,
  f4b: M4A,
};

/** The boxes on the way from the top level to a track's handler: `moov/trak/mdia/hdlr`. */
const HANDLER_PATH = ['moov', 'trak', 'mdia', 'hdlr'] as const;

/**
 * The handler types (`soun`, `vide`, `text`, ...) of the tracks of an ISO base-media file. The
 * whole file is in memory, so `moov` may come last; only the boxes of {@link HANDLER_PATH} are
 * entered, so the walk is at most four deep whatever the file nests.
 */
const trackHandlers = (
  bytes: Uint8Array,
  depth = 0,
  from = 0,
  to = bytes.length,
  found = new Set<string>(),
) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = from; at + 8 <= to; ) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    let header = 8;
    if (size === 1 && at + 16 <= to) {
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = to - at; // the box runs to the end of its parent
    if (size < header || at + size > to) break;
    if (type === HANDLER_PATH[depth]) {
      // hdlr: version and flags (4), pre_defined (4), then the handler type
      if (type !== 'hdlr') trackHandlers(bytes, depth + 1, at + header, at + size, found);
      else if (size >= header + 12)
        found.add(String.fromCharCode(...bytes.subarray(at + header + 8, at + header + 12)));
    }
    at += size;
  }
  return found;
};

/**
 * Whether an MP4 holds audio. `file-type` tells MP4 files apart by their major brand only: it
 * answers `video/mp4` for the generic brands (`isom`, `mp42`) of audio-only files too (checked on
 * files Chromium's MediaRecorder wrote), and `audio/x-m4a` for an `M4A ` file whatever its tracks
 * hold. So the tracks decide: a generic brand needs a sound track, and no MP4 may have a video one.
 */
const isAudioMp4 = (bytes: Uint8Array, audioBrand: boolean) => {
  const handlers = trackHandlers(bytes);
  return !handlers.has('vide') && (audioBrand || handlers.has('soun'));
};

/**
 * The audio container of `bytes` judged by content alone (never the client's file name or
 * content type), detected by `file-type`: WAV, MP3, Ogg (Vorbis, Opus, Speex), FLAC, or an MP4
 * with a sound track and no video track. Null for anything else, video containers included.
 */
export const sniffAudio = async (bytes: Uint8Array): Promise<SniffedAudio | null> => {
  const detected = await fileTypeFromBuffer(bytes).catch(() => undefined);
  if (!detected) return null;
  const audio = BY_EXTENSION[detected.ext];
  if (detected.ext === 'mp4' || audio === M4A) return isAudioMp4(bytes, audio === M4A) ? M4A : null;
  return audio ?? null;
};

/**
 * The container of stored audio from its first bytes, for serving it: an MP4 is taken as audio
 * (`audio/mp4`), since its tracks were checked when it was stored and may lie past the head.
 */
export const sniffAudioHead = async (head: Uint8Array): Promise<SniffedAudio | null> => {
  const detected = await fileTypeFromBuffer(head).catch(() => undefined);
  if (!detected) return null;
  return detected.ext === 'mp4' ? M4A : (BY_EXTENSION[detected.ext] ?? null);
};

/** How much of a file {@link sniffAudioFile} reads first: what `file-type` needs for every container. */
const HEAD_BYTES = 64 * 1024;

/**
 * {@link sniffAudio} of an upload's temporary file, reading only its head, so a large upload is
 * never read whole; except an MP4, whose track boxes may come last: that file (size-capped as an
 * upload) is read whole to walk them.
 */
export const sniffAudioFile = async (path: string): Promise<SniffedAudio | null> => {
  const handle = await open(path, 'r');
  let head: Buffer;
  let whole: boolean;
  try {
    const { size } = await handle.stat();
    head = Buffer.alloc(Math.min(size, HEAD_BYTES));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    head = head.subarray(0, bytesRead);
    whole = size <= HEAD_BYTES;
  } finally {
    await handle.close();
  }
  if (whole) return sniffAudio(head);
  const detected = await fileTypeFromBuffer(head).catch(() => undefined);
  const mp4 = detected?.ext === 'mp4' || BY_EXTENSION[detected?.ext ?? ''] === M4A;
  return sniffAudio(mp4 ? await readFile(path) : head);
};
