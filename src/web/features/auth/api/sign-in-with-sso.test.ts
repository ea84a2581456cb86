import { describe, expect, it } from 'vitest';
import { ssoDomain, ssoReturnUrl } from './sign-in-with-sso';

describe('the domain a learner’s input names', () => {
  it('takes the domain of a university email address, in any case and spacing', () => {
    expect(ssoDomain('  Ada@Lovelace.EDU ')).toEqual({ domain: 'lovelace.edu' });
    expect(ssoDomain('ada.l+notes@cs.uni-leeds.ac.uk')).toEqual({ domain: 'cs.uni-leeds.ac.uk' });
  });

  it('takes a domain typed on its own, or the organization’s web address', () => {
    expect(ssoDomain('university.edu')).toEqual({ domain: 'university.edu' });
    expect(ssoDomain('https://www.university.edu/login')).toEqual({ domain: 'university.edu' });
  });

  it('says what is wrong with input that names no domain', () => {
    expect(ssoDomain('   ')).toEqual({
      problem: 'Enter your university email address or its domain.',
    });
    for (const input of ['Lovelace University', 'ada@', 'ada@localhost', 'uni..edu', '-x.edu'])
      expect(ssoDomain(input)).toHaveProperty('problem');
  });

  it('comes back to the sign-in page, which goes on to where the learner was going', () => {
    expect(ssoReturnUrl('https://lyceum.example', '/app/notes?q=x')).toBe(
      'https://lyceum.example/login?sso=1&next=%2Fapp%2Fnotes%3Fq%3Dx',
    );
  });
});
