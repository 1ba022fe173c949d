/**
 * The tile store as a shared service: `fastify.tiles`, one TileStore (and so
 * one chunk cache) per app. Tests and the benchmark may pass their own.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { TileStore } from '../../tiles/read/reader.js';

export interface TilesPluginOptions {
  /** Data directory (`$METEOPUNTO_DATA`): products live under `<dataDir>/tiles/`. */
  dataDir: string;
  /** A store to use instead of a new one. */
  tiles?: TileStore;
}

declare module 'fastify' {
  interface FastifyInstance {
    tiles: TileStore;
  }
}

async function tilesPlugin(fastify: FastifyInstance, opts: TilesPluginOptions): Promise<void> {
  fastify.decorate('tiles', opts.tiles ?? new TileStore(opts.dataDir));
}

export default fp(tilesPlugin, { name: 'meteopunto-tiles', fastify: '5.x' });
