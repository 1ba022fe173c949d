/**
 * The point-weather computation as a shared service: `fastify.weather`
 * (api/weather/observe.ts), over the app's tile store.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { WeatherService } from '../weather/observe.js';

export interface WeatherPluginOptions {
  /** Current time, ms since the epoch (tests freeze it). */
  clock?: () => number;
}

declare module 'fastify' {
  interface FastifyInstance {
    weather: WeatherService;
  }
}

async function weatherPlugin(fastify: FastifyInstance, opts: WeatherPluginOptions): Promise<void> {
  fastify.decorate('weather', new WeatherService(fastify.tiles, opts.clock ? { clock: opts.clock } : {}));
}

export default fp(weatherPlugin, { name: 'meteopunto-weather', fastify: '5.x', dependencies: ['meteopunto-tiles'] });
