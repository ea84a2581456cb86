export function DataRoomPage() {
  return <h1>Due Diligence Data Room</h1>;
}
