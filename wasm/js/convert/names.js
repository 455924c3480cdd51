// Unique names for tensors and nodes the converter and exporter add.

/** Hands out names not yet taken: `hint`, else `hint_1`, `hint_2`, ... */
export class UniqueNames {
  constructor(taken = []) {
    this.taken = new Set(taken);
  }

  unique(hint) {
    let name = hint;
    for (let i = 1; this.taken.has(name); ++i) name = `${hint}_${i}`;
    this.taken.add(name);
    return name;
  }
}
