import { describeFullSizeRenders } from './full-size-renders.ts';

describeFullSizeRenders(0);
