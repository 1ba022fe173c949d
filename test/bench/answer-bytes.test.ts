import { describe, expect, it } from 'vitest';
import { parseCapturedAnswer } from '../../bench/answer-bytes.js';

describe('answer-bytes: a captured answer to replay', () => {
  it('keeps the headers the server chose, in order, drops those Node writes itself, and keeps the body whole', () => {
    const raw = [
      'HTTP/1.1 200 OK',
      'x-content-type-options: nosniff',
      'Content-Type: application/json; charset=utf-8',
      'content-length: 24',
      'Date: Fri, 27 Nov 2026 00:50:00 GMT',
      'Connection: keep-alive',
      'Keep-Alive: timeout=65',
      'x-ratelimit-remaining: 599',
      '',
      '{"a":"b: c\r\n\r\nd","e":1}',
    ].join('\r\n');
    expect(parseCapturedAnswer(raw)).toEqual({
      headers: [
        ['x-content-type-options', 'nosniff'],
        ['content-type', 'application/json; charset=utf-8'],
        ['x-ratelimit-remaining', '599'],
      ],
      body: '{"a":"b: c\r\n\r\nd","e":1}',
    });
  });

  it('refuses anything but a 200 captured with its head', () => {
    expect(() => parseCapturedAnswer('{"hello":"world"}')).toThrow(/curl -si/);
    expect(() => parseCapturedAnswer('HTTP/1.1 401 Unauthorized\r\n\r\n{}')).toThrow(/200/);
  });
});
