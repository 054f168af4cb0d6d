/** The list filters every page shares; their values live in the URL, so the pages own them. */

/** A search field that applies on submit (an empty one clears the filter). */
export const SearchBox = ({
  label,
  value,
  onSearch,
}: {
  label: string;
  value: string | undefined;
  onSearch: (q: string | undefined) => void;
}) => (
  <search>
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(new FormData(e.currentTarget).get('q')?.toString().trim() || undefined);
      }}
    >
      <label>
        {label} <input name="q" type="search" defaultValue={value ?? ''} key={value ?? ''} />
      </label>{' '}
      <button type="submit">Search</button>
    </form>
  </search>
);

type Choice<T extends string> = T | { value: T; label: string };

/** A select whose first option, “any”, clears the filter. */
export const SelectFilter = <T extends string>({
  label,
  value,
  choices,
  disabled = false,
  onChange,
}: {
  label: string;
  value: T | undefined;
  choices: ReadonlyArray<Choice<T>>;
  disabled?: boolean;
  onChange: (value: T | undefined) => void;
}) => (
  <label>
    {label}{' '}
    <select
      value={value ?? ''}
      disabled={disabled}
      onChange={(e) => onChange((e.target.value || undefined) as T | undefined)}
    >
      <option value="">any</option>
      {choices.map((choice) => {
        const { value: v, label: text } =
          typeof choice === 'string' ? { value: choice, label: choice } : choice;
        return (
          <option key={v} value={v}>
            {text}
          </option>
        );
      })}
    </select>
  </label>
);
