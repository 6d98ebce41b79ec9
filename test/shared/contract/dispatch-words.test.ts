import { describe, expect, it } from 'vitest';
import { issueMessage } from '../../../src/shared/contract/dispatch';

describe('issueMessage', () => {
  it('says a refused field once, by its human label, never its code name', () => {
    expect(issueMessage(['apiKey'], 'An API key is at least 8 characters.')).toBe('An API key is at least 8 characters.');
    expect(issueMessage(['renderConfig', 'sampleCount'], 'Too small: expected number to be >=1')).toBe('Samples: Too small: expected number to be >=1');
    expect(issueMessage(['baseUrl'], 'Enter the server address, e.g. https://farm.example.com.')).toBe('Enter the server address, e.g. https://farm.example.com.');
    expect(issueMessage([], 'The request is not valid.')).toBe('The request is not valid.');
    expect(issueMessage(['files', 0, 'path'], 'Required')).toBe('Path: Required');
  });
});
