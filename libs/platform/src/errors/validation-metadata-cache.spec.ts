import { IsInt, IsString, getMetadataStorage, validateSync } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

describe('the cached lookup of a class\'s validation rules', () => {
  class Parent {
    @IsString()
    name: string;
  }
  class Child extends Parent {
    @IsInt()
    nights: number;
  }

  const rulesOf = (target: new () => object) =>
    getMetadataStorage()
      .getTargetValidationMetadatas(target, '', false, false)
      .map((rule) => `${rule.propertyName}:${rule.name ?? rule.type}`)
      .sort();

  it('answers what class-validator itself answers, own and inherited rules', () => {
    const before = [rulesOf(Parent), rulesOf(Child)];
    cacheValidationMetadata();
    cacheValidationMetadata(); // installed once, however often the pipe is made
    expect([rulesOf(Parent), rulesOf(Child)]).toEqual(before);
    expect(rulesOf(Child)).toEqual(['name:isString', 'nights:isInt']);
    expect(getMetadataStorage().getTargetValidationMetadatas(Child, '', false, false)).toBe(getMetadataStorage().getTargetValidationMetadatas(Child, '', false, false));
    expect(validateSync(Object.assign(new Child(), { name: 1, nights: 'two' })).map((error) => error.property).sort()).toEqual(['name', 'nights']);
  });

  it('forgets what it kept when a rule is added later, to the class or to one it inherits from', () => {
    cacheValidationMetadata();
    expect(validateSync(Object.assign(new Child(), { name: 'Ada', nights: 2, rooms: 'x' }))).toEqual([]);
    // A rule added after the lookups above (as a module loaded later adds its classes' rules).
    IsInt()(Parent.prototype, 'rooms');
    expect(rulesOf(Child)).toContain('rooms:isInt');
    expect(validateSync(Object.assign(new Child(), { name: 'Ada', nights: 2, rooms: 'x' })).map((error) => error.property)).toEqual(['rooms']);
  });
});
