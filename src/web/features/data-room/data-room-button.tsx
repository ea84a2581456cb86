/** Header entry to the investor data room (the data-room feature replaces this with the PIN dialog). */
export function DataRoomButton({ active }: { active: boolean }) {
  return (
    <a href="/data-room" aria-current={active ? 'page' : undefined}>
      Data Room
    </a>
  );
}
