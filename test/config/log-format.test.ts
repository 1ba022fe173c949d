/** METEOPUNTO_LOG_FORMAT: forced either way, else by whether stdout is a terminal; anything else refused at start. */
import { describe, expect, it } from 'vitest';
import { checkEnvironment, ConfigError } from '../../config/environment.js';
import { logFormat } from '../../config/log-format.js';

describe('log format', () => {
  it('follows the terminal when unset, and the variable when set', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ METEOPUNTO_LOG_FORMAT: '' }, true)).toBe('pretty');
    expect(logFormat({ METEOPUNTO_LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ METEOPUNTO_LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
  });

  it('another value stops the CLI at start, naming the variable and the choices', () => {
    expect(() => checkEnvironment({ METEOPUNTO_LOG_FORMAT: 'text' })).toThrow(ConfigError);
    expect(() => checkEnvironment({ METEOPUNTO_LOG_FORMAT: 'text' })).toThrow("METEOPUNTO_LOG_FORMAT='text': expected one of pretty, json");
  });
});
