import { jest } from '@jest/globals';
import '@testing-library/jest-dom/jest-globals';
import { configure } from '@testing-library/react';

// The CI machines are shared and slow under load; a 1 s wait is not a fact about our code.
configure({ asyncUtilTimeout: 10_000 });
jest.setTimeout(60_000);
