import { parentPort } from 'node:worker_threads';
import { type AudioJob, runAudioJob } from './audio-jobs.js';

/** The worker thread of `off-loop.ts`: runs each job it is sent and answers with its PCM, moved. */
parentPort?.on('message', async ({ id, job }: { id: number; job: AudioJob }) => {
  try {
    const pcm = await runAudioJob(job);
    parentPort!.postMessage({ id, pcm }, [pcm.buffer as ArrayBuffer]);
  } catch (error) {
    const { name, message } = error as Error;
    parentPort!.postMessage({ id, error: { name, message } });
  }
});
