/** A clock the test moves by hand: `now` is what the code under test is given. */
export function fakeClock(start: string) {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (moment: string) => {
      current = new Date(moment).getTime();
    },
    advance: (ms: number) => {
      current += ms;
    },
  };
}
