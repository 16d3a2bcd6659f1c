import { Redis } from 'ioredis';

/** BullMQ needs maxRetriesPerRequest null on connections that block (workers, queue events). */
export function createRedis(redisUrl: string, options: { blocking?: boolean } = {}): Redis {
  const redis = new Redis(redisUrl, {
    maxRetriesPerRequest: options.blocking ? null : 3,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
  redis.on('error', () => {});
  return redis;
}
