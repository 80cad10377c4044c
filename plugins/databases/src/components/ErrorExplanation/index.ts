export { ErrorExplanation } from './ErrorExplanation';
