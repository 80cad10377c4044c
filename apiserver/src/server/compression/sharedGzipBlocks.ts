import { GzipBlocks } from './GzipBlocks';

/** One per process: list bodies share their pieces (pre-encoded objects), so they share blocks. */
export const sharedGzipBlocks = new GzipBlocks();
