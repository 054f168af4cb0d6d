import { useQuery } from '@tanstack/react-query';
import { SelectFilter } from './filters.tsx';
import { useClient } from './session-context.tsx';

/** The workspace's first 100 agents (names for lists and the agent filter), shared by the pages. */
const useAgents = () => {
  const client = useClient();
  return useQuery({
    queryKey: ['agents', 'names'],
    queryFn: () => client.agents.list({ page_size: 100 }),
    staleTime: 60_000,
  });
};

/** An agent's name: from the shared list, else fetched on its own (a workspace of more than 100). */
export const AgentName = ({ id }: { id: string }) => {
  const client = useClient();
  const agents = useAgents();
  const listed = agents.data?.items.find((a) => a.id === id);
  const single = useQuery({
    queryKey: ['agent', id],
    queryFn: () => client.agents.get(id),
    enabled: agents.isSuccess && listed === undefined,
    staleTime: 60_000,
  });
  const name = listed?.name ?? single.data?.name;
  return name ?? <span className="muted">{id.slice(0, 8)}</span>;
};

/** A select of the workspace's agents whose first option, “any”, clears the filter. */
export const AgentFilter = ({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (agent: string | undefined) => void;
}) => {
  const agents = useAgents();
  const choices = (agents.data?.items ?? []).map((a) => ({ value: a.id, label: a.name }));
  // an agent beyond the first 100, or not loaded yet, stays selected under its id
  if (value !== undefined && !choices.some((c) => c.value === value))
    choices.push({ value, label: value.slice(0, 8) });
  return <SelectFilter label="Agent" value={value} choices={choices} onChange={onChange} />;
};
