export { PhaseChip, toneColor } from './PhaseChip';
