import { clientSecretMaxLength, clientSecretProblem } from '../src/domain/provider';

describe('clientSecretProblem', () => {
  it('takes a client secret as a provider hands it out', () => {
    expect(clientSecretProblem('seti_1PQabc_secret_XYZ123')).toBeNull();
    expect(clientSecretProblem('x'.repeat(clientSecretMaxLength))).toBeNull();
  });

  it('asks for one that is missing or blank', () => {
    expect(clientSecretProblem('')).toBe('Client secret is required');
    expect(clientSecretProblem('   ')).toBe('Client secret is required');
  });

  it('refuses one longer than any provider gives out, before anything is looked up', () => {
    expect(clientSecretProblem('x'.repeat(clientSecretMaxLength + 1))).toBe('Client secret is not one Haven gave out');
  });
});
