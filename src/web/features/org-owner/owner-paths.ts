/** Addresses of the owner's screens, filled from the one route table. */
import { routePath } from '@common/routes';

export const ownerPaths = {
  boards: '/app/owner/boards',
  board: (boardId: string) => routePath('/app/owner/boards/:boardId', { boardId }),
  distribution: '/app/owner/distribution',
  people: '/app/owner/people',
};
