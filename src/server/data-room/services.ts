/**
 * What the data-room functions share: the storage API and the PIN checker. Built once at
 * start-up (`createDataRoomServices`) and handed to the gateway with its other dependencies.
 */
import type { Config } from '../config';
import type { Database } from '../db/types';
import type { Logger } from '../logger';
import type { Storage } from '../storage/storage';
import { pruneAttempts } from './attempts';
import { loadPinChecker, type PinChecker } from './pin';
import { seedDataRoom } from './seed';

export interface DataRoomServices {
  storage: Storage;
  pin(): Promise<PinChecker>;
}

export interface DataRoomDeps {
  db: Database;
  config: Pick<Config, 'dataRoomPin'>;
  log: Logger;
  storage: Storage;
}

export function createDataRoomServices(deps: DataRoomDeps): DataRoomServices {
  let pin: Promise<PinChecker> | undefined;
  return {
    storage: deps.storage,
    pin() {
      pin ??= loadPinChecker(deps.db, deps.config.dataRoomPin, deps.log);
      pin.catch(() => (pin = undefined));
      return pin;
    },
  };
}

/**
 * Start-up: settles the PIN (generating and printing it on first start), seeds the pack
 * into the registry and the private bucket on first start, and applies the retention rules.
 */
export async function prepareDataRoom(
  deps: DataRoomDeps,
  services: DataRoomServices,
): Promise<void> {
  await services.pin();
  await seedDataRoom(deps.db, services.storage, deps.log);
  await pruneAttempts(deps.db);
}
