/**
 * What the data-room functions share per running gateway: the storage API and the PIN
 * checker. Built once per set of gateway deps.
 */
import type { GatewayDeps } from '../gateway/context';
import { createStorage, type Storage } from '../gateway/storage/index';
import { pruneAttempts } from './attempts';
import { loadPinChecker, type PinChecker } from './pin';
import { seedDataRoom } from './seed';

export interface DataRoomServices {
  storage: Storage;
  pin(): Promise<PinChecker>;
}

const cache = new WeakMap<GatewayDeps, DataRoomServices>();

export function dataRoomServices(deps: GatewayDeps): DataRoomServices {
  let services = cache.get(deps);
  if (!services) {
    const storage = createStorage({ db: deps.db, config: deps.config, keys: deps.keys });
    let pin: Promise<PinChecker> | undefined;
    services = {
      storage,
      pin() {
        pin ??= loadPinChecker(deps.db, deps.config.dataRoomPin, deps.log);
        pin.catch(() => (pin = undefined));
        return pin;
      },
    };
    cache.set(deps, services);
  }
  return services;
}

/**
 * Start-up: settles the PIN (generating and printing it on first start), seeds the pack
 * into the registry and the private bucket on first start, and applies the retention rules.
 */
export async function prepareDataRoom(deps: GatewayDeps): Promise<void> {
  const services = dataRoomServices(deps);
  await services.pin();
  await seedDataRoom(deps.db, services.storage, deps.log);
  await pruneAttempts(deps.db);
}
