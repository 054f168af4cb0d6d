/** The typical background level is only trusted after this many frames (200 ms at 20 ms). */
const MIN_BACKGROUND_FRAMES = 10;

/**
 * The VAD's picture of the background. The floor is by minimum statistics (the quietest of the last
 * `windowFrames`, so it follows a rising noise within that window and ignores speech); the typical
 * level is the median of the last `backgroundFrames` heard outside speech. For steady noise the two
 * are close; for bursty babble the median sits well above the floor, and edges are judged against it.
 */
export const createNoiseFloor = (windowFrames: number, backgroundFrames: number) => {
  const recent = new Float64Array(windowFrames);
  const background = new Float64Array(backgroundFrames);
  let seen = 0;
  let backgroundSeen = 0;

  return {
    /** Adds a frame's level (dBFS) to the minimum-statistics window. */
    hear: (levelDbfs: number): void => {
      recent[seen++ % recent.length] = levelDbfs;
    },
    /** Adds the level (dBFS) of a frame heard outside speech to the background. */
    hearBackground: (levelDbfs: number): void => {
      background[backgroundSeen++ % background.length] = levelDbfs;
    },
    /** The lowest level of the window, dBFS (+Infinity before any frame). */
    floor: (): number => {
      let floor = Number.POSITIVE_INFINITY;
      for (let i = 0; i < Math.min(seen, recent.length); i++) floor = Math.min(floor, recent[i]!);
      return floor;
    },
    /** The median background level, dBFS (−Infinity until enough frames were heard). */
    typical: (): number => {
      if (backgroundSeen < MIN_BACKGROUND_FRAMES) return Number.NEGATIVE_INFINITY;
      const sorted = background.slice(0, Math.min(backgroundSeen, background.length)).sort();
      return sorted[Math.floor(sorted.length / 2)]!;
    },
    reset: (): void => {
      seen = 0;
      backgroundSeen = 0;
    },
  };
};
