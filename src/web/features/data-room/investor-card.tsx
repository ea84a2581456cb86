/** Home page card that leads investors to the data room. */
export function InvestorCard() {
  return null;
}
