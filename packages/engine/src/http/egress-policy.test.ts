import { describe, expect, it } from 'vitest';
import { SvcError } from '../errors.js';
import { createEgressPolicy, parseEgressRules, type EgressPolicy } from './egress-policy.js';

function verdict(policy: EgressPolicy, address: string, port = 80, host = address): boolean {
  return policy.check({ host, port, address }).allowed;
}

describe('parseEgressRules', () => {
  it('reads hosts, host:port, IPs in any URL spelling, IP:port, [IPv6]:port and CIDR ranges', () => {
    const rules = parseEgressRules(
      '127.0.0.1:4010, 10.0.0.0/8,api.internal\n*.corp.example,[::1]:8080,fc00::/7,127.1,API.Example:443',
      'SVC_EGRESS_ALLOW',
    );
    expect(rules.map((rule) => rule.entry)).toEqual([
      '127.0.0.1:4010',
      '10.0.0.0/8',
      'api.internal',
      '*.corp.example',
      '[::1]:8080',
      'fc00::/7',
      '127.1',
      'API.Example:443',
    ]);
    expect(rules[0]).toMatchObject({ port: 4010, range: { prefix: 128 } });
    expect(rules[1]).toMatchObject({ range: { prefix: 104 } });
    expect(rules[2]).toMatchObject({ host: 'api.internal' });
    expect(rules[3]).toMatchObject({ host: '*.corp.example' });
    expect(rules[4]).toMatchObject({ port: 8080, range: { prefix: 128 } });
    expect(rules[6]!.range).toEqual(rules[0]!.range);
    expect(rules[7]).toMatchObject({ host: 'api.example', port: 443 });
    expect(parseEgressRules(undefined, 'SVC_EGRESS_ALLOW')).toEqual([]);
    expect(parseEgressRules(' , ', 'SVC_EGRESS_ALLOW')).toEqual([]);
  });

  it.each([
    '10.0.0.0/33',
    'host:99999',
    'host:0',
    'http://api.internal',
    'a b/c',
    'user@host',
    'fc00::/129',
    '[::1',
    'host:port',
  ])('fails on "%s" naming the variable and the entry', (entry) => {
    let error: unknown;
    try {
      parseEgressRules(`127.0.0.1,${entry}`, 'SVC_EGRESS_DENY');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).code).toBe('CONFIG_ERROR');
    expect((error as SvcError).message).toContain('SVC_EGRESS_DENY');
  });
});

describe('createEgressPolicy', () => {
  const service = createEgressPolicy({ mode: 'service' });
  const local = createEgressPolicy({ mode: 'local' });

  it('under service refuses loopback, unspecified, private, shared and link-local addresses in every IPv4 and IPv6 form', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '169.254.1.1',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a00:1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '::127.0.0.1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fe80::1%eth0',
      'ff02::1',
      '224.0.0.1',
      '255.255.255.255',
    ]) {
      expect(verdict(service, address), address).toBe(false);
    }
    for (const address of ['93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '8.8.8.8']) {
      expect(verdict(service, address), address).toBe(true);
    }
  });

  it('locally allows loopback and private addresses but never link-local or metadata ones', () => {
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.10', 'fd00::1', '0.0.0.0'])
      expect(verdict(local, address), address).toBe(true);
    for (const address of [
      '169.254.169.254',
      '169.254.0.1',
      'fe80::1',
      'fd00:ec2::254',
      '100.100.100.200',
      '::ffff:169.254.169.254',
    ]) {
      expect(verdict(local, address), address).toBe(false);
    }
  });

  it('lets allow rules through by address, port, range or host name, and deny rules win', () => {
    const policy = createEgressPolicy({
      mode: 'service',
      allow: parseEgressRules('127.0.0.1:4010,10.0.0.0/8,api.internal,*.corp.example', 'SVC_EGRESS_ALLOW'),
      deny: parseEgressRules('10.9.0.0/16', 'SVC_EGRESS_DENY'),
    });
    expect(verdict(policy, '127.0.0.1', 4010)).toBe(true);
    expect(verdict(policy, '::ffff:127.0.0.1', 4010)).toBe(true);
    expect(verdict(policy, '127.0.0.1', 4011)).toBe(false);
    expect(verdict(policy, '10.1.1.1', 22)).toBe(true);
    expect(verdict(policy, '10.9.1.1', 22)).toBe(false);
    expect(policy.check({ host: '10.9.1.1', port: 22, address: '10.9.1.1' })).toEqual({
      allowed: false,
      reason: 'SVC_EGRESS_DENY entry "10.9.0.0/16" refuses it',
    });
    expect(verdict(policy, '192.168.1.1', 80, 'api.internal')).toBe(true);
    expect(verdict(policy, '192.168.1.1', 80, 'db.corp.example')).toBe(true);
    expect(verdict(policy, '192.168.1.1', 80, 'corp.example.evil')).toBe(false);
  });

  it('never lets an allow rule reach link-local or metadata addresses', () => {
    const policy = createEgressPolicy({
      mode: 'service',
      allow: parseEgressRules('169.254.0.0/16,169.254.169.254,metadata.internal', 'SVC_EGRESS_ALLOW'),
    });
    const refused = policy.check({ host: 'metadata.internal', port: 80, address: '169.254.169.254' });
    expect(refused).toEqual({
      allowed: false,
      reason: 'a cloud metadata address (169.254.169.254/32) is always refused',
    });
    expect(verdict(policy, '169.254.3.4')).toBe(false);
  });

  it('refuses a host named by a deny rule before it is resolved', () => {
    const policy = createEgressPolicy({
      mode: 'local',
      deny: parseEgressRules('*.internal,evil.example:8080', 'SVC_EGRESS_DENY'),
    });
    expect(policy.checkHost('api.internal', 443).allowed).toBe(false);
    expect(policy.checkHost('evil.example', 8080).allowed).toBe(false);
    expect(policy.checkHost('evil.example', 80).allowed).toBe(true);
    expect(policy.checkHost('example.com', 80).allowed).toBe(true);
  });
});
