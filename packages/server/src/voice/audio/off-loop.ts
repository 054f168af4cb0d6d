import { Worker } from 'node:worker_threads';
import { AudioFormatError } from './audio-format-error.js';
import { type AudioJob, runAudioJob } from './audio-jobs.js';

/**
 * Audio work off the event loop. A voice call paces its frames on the main thread every 20 ms, so
 * work that takes longer than a frame (generating ambience, decoding an upload, resampling speech)
 * runs on a worker thread: started when first needed, holding the process open only while it has
 * work. It runs the built `audio-worker.js`, or from the sources its TypeScript through tsx. If the
 * worker cannot start (a host that bundled the server without that file), or dies, its jobs run
 * on the calling thread instead, with a warning: slower calls, nothing lost.
 */
export type AudioWorker = {
  run: (job: AudioJob) => Promise<Int16Array>;
  /** Stops the thread; a later job starts another. */
  close: () => Promise<void>;
};

type Reply = { id: number; pcm: Int16Array } | { id: number; error: { name: string; message: string } };

const spawnAudioWorker = (): Worker => {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./audio-worker.js', here));
  // from the sources (tests, tsx): a worker does not inherit the loader, so it registers tsx first
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./audio-worker.ts', here).href;
  const bootstrap = `import(${JSON.stringify(tsx)})
    .then(({ register }) => register())
    .then(() => import(${JSON.stringify(entry)}))`;
  // and resolves the workspace's packages to their sources too, as the tests and `pnpm dev` do
  return new Worker(bootstrap, {
    eval: true,
    execArgv: [...process.execArgv, '--conditions=@voice-eval/source'],
  });
};

const errorOf = ({ name, message }: { name: string; message: string }) => {
  const error = name === 'AudioFormatError' ? new AudioFormatError(message) : new Error(message);
  if (name !== 'AudioFormatError') error.name = name;
  return error;
};

/** One audio worker thread; `spawn` is for tests. */
export const createAudioWorker = (spawn: () => Worker = spawnAudioWorker): AudioWorker => {
  let worker: Worker | null = null;
  let answered = false;
  let unavailable = false;
  let nextId = 0;
  const pending = new Map<
    number,
    { job: AudioJob; resolve: (pcm: Int16Array) => void; reject: (e: Error) => void }
  >();

  /** The thread is gone: its jobs run here, and a thread that never answered is not tried again. */
  const lost = (thread: Worker, reason: string) => {
    if (worker !== thread) return;
    worker = null;
    if (!answered) unavailable = true;
    if (pending.size === 0) return;
    process.emitWarning(
      `voice-eval: the audio worker thread ${reason}; its audio work runs on the main thread`,
    );
    const jobs = [...pending.values()];
    pending.clear();
    for (const { job, resolve, reject } of jobs) runAudioJob(job).then(resolve, reject);
  };

  const start = () => {
    const thread = spawn();
    answered = false;
    thread.on('message', (reply: Reply) => {
      answered = true;
      const job = pending.get(reply.id);
      pending.delete(reply.id);
      if (pending.size === 0) thread.unref();
      if (!job) return;
      if ('pcm' in reply) job.resolve(reply.pcm);
      else job.reject(errorOf(reply.error));
    });
    thread.on('error', (error) => lost(thread, `failed (${error.message})`));
    thread.on('exit', (code) => lost(thread, `exited (${code})`));
    return thread;
  };

  return {
    run: (job) => {
      if (unavailable) return runAudioJob(job);
      worker ??= start();
      const thread = worker;
      return new Promise<Int16Array>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { job, resolve, reject });
        thread.ref();
        thread.postMessage({ id, job });
      });
    },
    close: async () => {
      const thread = worker;
      worker = null;
      for (const { reject } of pending.values()) reject(new Error('The audio worker was closed.'));
      pending.clear();
      await thread?.terminate();
    },
  };
};

/** The process's audio worker: every voice call shares it. */
export const audioWorker = createAudioWorker();
