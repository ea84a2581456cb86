/**
 * The data room's registry as the data-room function answers it and the page shows it.
 */

/** The pack's entry point, which the overview offers to open first. */
export const MASTER_README_PATH = 'due_diligence/master-readme.md';

export type DataRoomTab = 'legal' | 'financial' | 'business' | 'other';

/** One registry entry with its current version. */
export interface DataRoomDocument {
  id: string;
  tab: DataRoomTab;
  sectionNumber: string;
  sectionTitle: string;
  position: number;
  name: string;
  path: string;
  version: string;
  /** ISO date (YYYY-MM-DD) of the current version. */
  date: string;
  status: 'Available' | 'Unavailable';
  sizeBytes: number | null;
}

export interface DataRoomOverview {
  totalDocuments: number;
  categories: number;
  availableDocuments: number;
  availabilityPercent: number;
  lastUpdated: string | null;
  edition: string | null;
}
