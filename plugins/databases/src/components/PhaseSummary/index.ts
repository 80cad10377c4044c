export { PhaseSummary } from './PhaseSummary';
