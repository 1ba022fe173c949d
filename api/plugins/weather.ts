/**
 * The point-weather computation as a shared service: `fastify.weather`
 * (api/weather/service.ts) over the app's tile store, with the router's view
 * of the published products (api/router/published.ts).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { PublishedProducts } from '../router/published.js';
import { WeatherService } from '../weather/service.js';

export interface WeatherPluginOptions {
  /** Data directory (`$METEOPUNTO_DATA`). */
  dataDir: string;
  /** Current time, ms since the epoch (tests freeze it). */
  clock?: () => number;
}

declare module 'fastify' {
  interface FastifyInstance {
    weather: WeatherService;
    /** The products the router sees (health, metrics). */
    products: PublishedProducts;
  }
}

async function weatherPlugin(fastify: FastifyInstance, opts: WeatherPluginOptions): Promise<void> {
  const products = new PublishedProducts(fastify.tiles);
  fastify.decorate('products', products);
  fastify.decorate('weather', new WeatherService(fastify.tiles, products, opts.clock ? { clock: opts.clock } : {}));
}

export default fp(weatherPlugin, { name: 'meteopunto-weather', fastify: '5.x', dependencies: ['meteopunto-tiles'] });
