/** What each capability's demo seeder is given: the clock and the ids of the demo organizations and members by key. */
export interface DemoContext {
  now: Date;
  organizations: Record<string, string>;
  members: Record<string, string>;
}
